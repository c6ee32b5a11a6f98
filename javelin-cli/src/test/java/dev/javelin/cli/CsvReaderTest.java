package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class CsvReaderTest extends CliTestBase {
  private List<String[]> records(String csv) throws Exception {
    List<String[]> out = new ArrayList<>();
    try (CsvParser p = CsvParser.open(text("in.csv", csv))) {
      for (String[] r = p.next(); r != null; r = p.next()) {
        out.add(r);
      }
    }
    return out;
  }

  @Test
  void parsesQuotesLineBreaksAndNulls() throws Exception {
    List<String[]> r = records("\uFEFFa,b,c\r\n1,\"x, \"\"y\"\"\",\"\"\r\n\n,\"two\nlines\",3\n");
    assertThat(r).hasSize(3);
    assertThat(r.get(0)).containsExactly("a", "b", "c");
    assertThat(r.get(1)).containsExactly("1", "x, \"y\"", "");
    assertThat(r.get(2)).containsExactly(null, "two\nlines", "3");
  }

  @Test
  void knowsTheLineEachRecordStartsOn() throws Exception {
    try (CsvParser p = CsvParser.open(text("in.csv", "h\n\"a\nb\"\n\nc"))) {
      p.next();
      assertThat(p.recordLine()).isEqualTo(1);
      assertThat(p.next()).containsExactly("a\nb");
      assertThat(p.recordLine()).isEqualTo(2);
      assertThat(p.next()).containsExactly("c");
      assertThat(p.recordLine()).isEqualTo(5);
      assertThat(p.next()).isNull();
    }
  }

  @Test
  void rejectsBrokenQuoting() throws Exception {
    Path in = dir.resolve("in.csv");
    assertThatThrownBy(() -> records("a\n\"open\nstill open"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Quoted cell starting on line 2 of " + in + " is never closed");
    assertThatThrownBy(() -> records("a,b\n\"x\"y,2"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Unexpected text after a closing quote on line 2 of " + in
            + " (a '\"' inside a quoted cell is written '\"\"')");
  }

  private String readAll(String csv, String spec, int batchRows) throws Exception {
    StringBuilder out = new StringBuilder();
    try (CsvReader r = CsvReader.open(text("in.csv", csv), spec == null ? null : SchemaSpec.parse(spec), allocator,
        batchRows)) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      out.append(root.getSchema()).append('\n');
      while (r.loadNextBatch()) {
        out.append("batch of ").append(root.getRowCount()).append('\n')
            .append(RowWritersTest.render(OutputFormat.JSONL, root));
      }
    }
    return out.toString();
  }

  @Test
  void readsEveryTypeASpecNames() throws Exception {
    String csv = "h,t,d,f,l,p,q\n1.5,12:30:00.5,2024-02-03,AQID,AQI=,-1.25,7\n";
    assertThat(readAll(csv, "h:float16,t:time64[us],d:date64,f:fixed_size_binary[3],l:large_binary,"
        + "p:decimal256(40,2),q:decimal128(10, 2)", 10)).isEqualTo(
        "Schema<h: FloatingPoint(HALF) not null, t: Time(MICROSECOND, 64) not null, d: Date(MILLISECOND) not null, "
            + "f: FixedSizeBinary(3) not null, l: LargeBinary not null, p: Decimal(40, 2, 256) not null, "
            + "q: Decimal(10, 2, 128) not null>\n"
            + "batch of 1\n"
            + "{\"h\":1.5,\"t\":\"12:30:00.5\",\"d\":\"2024-02-03\",\"f\":\"AQID\",\"l\":\"AQI=\",\"p\":-1.25,"
            + "\"q\":7.00}\n");
  }

  @Test
  void infersDatesTimestampsAndKeepsLeadingZerosAsText() throws Exception {
    String csv = "zip,day,at,atz,mixed,neg\n01234,2024-02-03,2024-02-03T10:00,2024-02-03T10:00:00+01:00,2024-02-03,-0.5\n"
        + "7,2024-02-04,2024-02-04 11:00:00.123,2024-02-03T10:00:00Z,2024-02-03 10:00:00,-07\n";
    assertThat(readAll(csv, null, 10)).startsWith(
        "Schema<zip: Utf8, day: Date(DAY), at: Timestamp(MICROSECOND, null), atz: Timestamp(MICROSECOND, UTC), "
            + "mixed: Timestamp(MICROSECOND, null), neg: Utf8>\n");
  }

  @Test
  void infersTypesFromTheWholeFile() throws Exception {
    String csv = "flag,n,x,mixed,empty,big,word\n"
        + "true,1,1.5,1,,1,a\n"
        + "FALSE,-2,2,2.5,,99999999999999999999,\"\"\n"
        + ",,-1e3,,,,\n";
    assertThat(readAll(csv, null, 10)).isEqualTo(
        "Schema<flag: Bool, n: Int(64, true), x: FloatingPoint(DOUBLE), mixed: FloatingPoint(DOUBLE), empty: Utf8, "
            + "big: Utf8, word: Utf8>\n"
            + "batch of 3\n"
            + "{\"flag\":true,\"n\":1,\"x\":1.5,\"mixed\":1.0,\"empty\":null,\"big\":\"1\",\"word\":\"a\"}\n"
            + "{\"flag\":false,\"n\":-2,\"x\":2.0,\"mixed\":2.5,\"empty\":null,\"big\":\"99999999999999999999\","
            + "\"word\":\"\"}\n"
            + "{\"flag\":null,\"n\":null,\"x\":-1000.0,\"mixed\":null,\"empty\":null,\"big\":null,\"word\":null}\n");
  }

  @Test
  void streamsInBatches() throws Exception {
    assertThat(readAll("a\n1\n2\n3\n4\n5\n", null, 2)).isEqualTo(
        "Schema<a: Int(64, true)>\n"
            + "batch of 2\n{\"a\":1}\n{\"a\":2}\n"
            + "batch of 2\n{\"a\":3}\n{\"a\":4}\n"
            + "batch of 1\n{\"a\":5}\n");
  }

  @Test
  void usesTheDeclaredTypesInTheSpecsOrder() throws Exception {
    String csv = "when,id,day,blob,ok,big,f\n"
        + "2024-05-31T12:00:00.5Z,1,2024-05-31,AQID,1,18446744073709551615,0.25\n"
        + "2024-05-31 14:00:00+02:00,2,,,false,0,\n";
    assertThat(readAll(csv, "id:int32, ok:bool, when:timestamp[ms,UTC], day:date32?, blob:binary?, big:uint64,"
        + " f:float32?", 10)).isEqualTo(
        "Schema<id: Int(32, true) not null, ok: Bool not null, when: Timestamp(MILLISECOND, UTC) not null, "
            + "day: Date(DAY)?, blob: Binary?, big: Int(64, false) not null, f: FloatingPoint(SINGLE)?>\n"
            .replace("?", "")
            + "batch of 2\n"
            + "{\"id\":1,\"ok\":true,\"when\":\"2024-05-31T12:00:00.500Z\",\"day\":\"2024-05-31\",\"blob\":\"AQID\","
            + "\"big\":18446744073709551615,\"f\":0.25}\n"
            + "{\"id\":2,\"ok\":false,\"when\":\"2024-05-31T12:00:00Z\",\"day\":null,\"blob\":null,\"big\":0,"
            + "\"f\":null}\n");
  }

  @Test
  void namesRowAndColumnOfACellItCannotRead() throws Exception {
    Path in = dir.resolve("in.csv");
    assertThatThrownBy(() -> readAll("a,b\n1,2\n3,x\n", "a:int64,b:int8", 10))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot read 'x' as int8 at row 2, column 'b' of " + in + " (line 3)");
    assertThatThrownBy(() -> readAll("a\n300\n", "a:uint8", 10))
        .hasMessage("Cannot read '300' as uint8 at row 1, column 'a' of " + in + " (line 2)");
    assertThatThrownBy(() -> readAll("a\nyes\n", "a:bool", 10))
        .hasMessage("Cannot read 'yes' as bool at row 1, column 'a' of " + in + " (line 2)");
    assertThatThrownBy(() -> readAll("a\n31/05/2024\n", "a:date32", 10))
        .hasMessage("Cannot read '31/05/2024' as date32 at row 1, column 'a' of " + in + " (line 2)");
    assertThatThrownBy(() -> readAll("a\n1.5f\n", "a:float64", 10))
        .hasMessage("Cannot read '1.5f' as float64 at row 1, column 'a' of " + in + " (line 2)");
    assertThatThrownBy(() -> readAll("a\n" + "9".repeat(50) + "\n", "a:int64", 10))
        .hasMessage("Cannot read '" + "9".repeat(37) + "...' as int64 at row 1, column 'a' of " + in + " (line 2)");
  }

  @Test
  void rejectsAnEmptyCellInANotNullColumn() throws Exception {
    Path in = dir.resolve("in.csv");
    assertThatThrownBy(() -> readAll("a,b\n1,\n", "a:int64,b:utf8", 10))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Empty cell at row 1, column 'b' of " + in
            + " (line 2), but --schema declares it not null (write 'b:utf8?' to allow nulls)");
  }

  @Test
  void checksTheHeaderAndTheShapeOfRows() throws Exception {
    Path in = dir.resolve("in.csv");
    assertThatThrownBy(() -> readAll("", null, 10))
        .hasMessage("CSV file " + in + " is empty; it needs a header line");
    assertThatThrownBy(() -> readAll("a,,c\n", null, 10))
        .hasMessage("Column 2 of the header of " + in + " has no name");
    assertThatThrownBy(() -> readAll("a,b,a\n", null, 10))
        .hasMessage("Column 'a' appears twice in the header of " + in);
    assertThatThrownBy(() -> readAll("a,b\n1,2\n3\n", null, 10))
        .hasMessage("Row 2 of " + in + " (line 3) has 1 cell, but the header has 2");
    assertThatThrownBy(() -> readAll("a,b\n1,2,3\n", "a:int64,b:int64", 10))
        .hasMessage("Row 1 of " + in + " (line 2) has 3 cells, but the header has 2");
    assertThatThrownBy(() -> readAll("a,b\n", "a:int64", 10))
        .hasMessage("--schema does not give a type for column 'b' of " + in + " (it must name every column)");
    assertThatThrownBy(() -> readAll("a,b\n", "a:int64,b:int64,c:utf8", 10))
        .hasMessage("--schema names column 'c', which " + in + " does not have (its columns: a, b)");
  }
}
