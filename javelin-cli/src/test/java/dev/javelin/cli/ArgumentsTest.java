package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class ArgumentsTest {
  @Test
  void parsesRowRanges() {
    RowRange r = RowRange.parse("10:20");
    assertThat(new long[] {r.start, r.end}).containsExactly(10, 20);
    r = RowRange.parse("5:");
    assertThat(new long[] {r.start, r.end}).containsExactly(5, -1);
    r = RowRange.parse(" :7 ");
    assertThat(new long[] {r.start, r.end}).containsExactly(0, 7);
    r = RowRange.parse("3:3");
    assertThat(new long[] {r.start, r.end}).containsExactly(3, 3);
  }

  @Test
  void rejectsBadRowRanges() {
    assertThatThrownBy(() -> RowRange.parse("5")).hasMessage("'5' is not START:END (for example 0:100, 50: or :10)");
    assertThatThrownBy(() -> RowRange.parse("1:2:3"))
        .hasMessage("'1:2:3' is not START:END (for example 0:100, 50: or :10)");
    assertThatThrownBy(() -> RowRange.parse("a:b")).hasMessage("'a:b' is not START:END (for example 0:100, 50: or :10)");
    assertThatThrownBy(() -> RowRange.parse("9:5")).hasMessage("'9:5' ends before it starts");
    assertThatThrownBy(() -> RowRange.parse("-1:5")).hasMessage("'-1:5' has a negative row number");
  }

  @Test
  void parsesByteSizes() {
    ByteSize b = new ByteSize();
    assertThat(b.convert("1048576")).isEqualTo(1048576L);
    assertThat(b.convert("512K")).isEqualTo(512L << 10);
    assertThat(b.convert("8m")).isEqualTo(8L << 20);
    assertThat(b.convert("1GiB")).isEqualTo(1L << 30);
    assertThat(b.convert("2MB")).isEqualTo(2L << 20);
    assertThatThrownBy(() -> b.convert("12x")).isInstanceOf(TypeConversionException.class)
        .hasMessage("'12x' is not a size (for example 1048576, 512K or 8M)");
    assertThatThrownBy(() -> b.convert("0")).hasMessage("'0' is not a positive size");
  }

  @Test
  void parsesSchemaSpecs() {
    Schema s = SchemaSpec.parse("id:int64, name : utf8?,at:timestamp[us,America/New_York]?,d:date,x:double").schema();
    assertThat(s.toString()).isEqualTo("Schema<id: Int(64, true) not null, name: Utf8, "
        + "at: Timestamp(MICROSECOND, America/New_York), d: Date(DAY) not null, x: FloatingPoint(DOUBLE) not null>");
    assertThat(SchemaSpec.name(s.getFields().get(2).getType())).isEqualTo("timestamp[us,America/New_York]");
  }

  @Test
  void rejectsBadSchemaSpecs() {
    assertThatThrownBy(() -> SchemaSpec.parse("a:int33")).hasMessage("column 'a' has unknown type 'int33' (known: "
        + "bool, int8..int64, uint8..uint64, float16, float32, float64, utf8, large_utf8, binary, large_binary, "
        + "date32, date64, time32[s|ms], time64[us|ns], timestamp[s|ms|us|ns(,TZ)], decimal(P,S), "
        + "fixed_size_binary[N])");
    assertThatThrownBy(() -> SchemaSpec.parse("a")).hasMessage("'a' has no type (expected NAME:TYPE, e.g. a:int64)");
    assertThatThrownBy(() -> SchemaSpec.parse(":int64")).hasMessage("':int64' has no column name");
    assertThatThrownBy(() -> SchemaSpec.parse("a:int64,,b:utf8"))
        .hasMessage("'a:int64,,b:utf8' has an empty column (expected NAME:TYPE,...)");
    assertThatThrownBy(() -> SchemaSpec.parse("a:int64,a:utf8")).hasMessage("column 'a' appears twice");
    assertThatThrownBy(() -> SchemaSpec.parse("t:timestamp[us,Mars/Olympus]"))
        .hasMessage("column 't' has an unknown time zone 'Mars/Olympus'");
    assertThatThrownBy(() -> SchemaSpec.parse("t:timestamp[h]")).hasMessageStartingWith(
        "column 't' has unknown type 'timestamp[h]'");
  }
}
