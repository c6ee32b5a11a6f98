package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class RowWritersTest extends CliTestBase {
  static String render(OutputFormat format, VectorSchemaRoot... batches) throws Exception {
    StringWriter s = new StringWriter();
    try (RowWriter w = format.text(new PrintWriter(s))) {
      w.start(batches[0].getSchema());
      for (VectorSchemaRoot b : batches) {
        w.write(b);
      }
      w.finish();
    }
    return s.toString();
  }

  static final String SAMPLE_TABLE =
      " id | name    | score | vector                    | rating | tags       | address\n"
    + "----+---------+-------+---------------------------+--------+------------+------------------------------\n"
    + "  0 | ada     | 72.76 | [0.683,0.048,0.309,0.942] |      1 | []         | {\"city\":\"Oslo\",\"zip\":10000}\n"
    + "  1 | grace   | 70.77 | [0.091,0.903,0.451,0.369] |      3 | [76]       | {\"city\":\"Kyoto\",\"zip\":10037}\n"
    + "  2 | alan    | 69.04 | [0.762,0.783,0.998,0.919] |      4 | [26,13]    | {\"city\":\"Tunis\",\"zip\":10074}\n"
    + "  3 | edsger  | 74.99 | [0.387,0.798,0.177,0.151] |      1 | [56,30,85] | {\"city\":\"Lyon\",\"zip\":10111}\n"
    + "  4 | barbara |  82.6 | [0.172,0.159,0.587,0.274] |   null | []         | {\"city\":\"Quito\",\"zip\":10148}\n";

  static final String SAMPLE_JSONL =
      "{\"id\":0,\"name\":\"ada\",\"score\":72.76,\"vector\":[0.683,0.048,0.309,0.942],\"rating\":1,\"tags\":[],"
    + "\"address\":{\"city\":\"Oslo\",\"zip\":10000}}\n"
    + "{\"id\":1,\"name\":\"grace\",\"score\":70.77,\"vector\":[0.091,0.903,0.451,0.369],\"rating\":3,\"tags\":[76],"
    + "\"address\":{\"city\":\"Kyoto\",\"zip\":10037}}\n"
    + "{\"id\":2,\"name\":\"alan\",\"score\":69.04,\"vector\":[0.762,0.783,0.998,0.919],\"rating\":4,\"tags\":[26,13],"
    + "\"address\":{\"city\":\"Tunis\",\"zip\":10074}}\n"
    + "{\"id\":3,\"name\":\"edsger\",\"score\":74.99,\"vector\":[0.387,0.798,0.177,0.151],\"rating\":1,"
    + "\"tags\":[56,30,85],\"address\":{\"city\":\"Lyon\",\"zip\":10111}}\n"
    + "{\"id\":4,\"name\":\"barbara\",\"score\":82.6,\"vector\":[0.172,0.159,0.587,0.274],\"rating\":null,\"tags\":[],"
    + "\"address\":{\"city\":\"Quito\",\"zip\":10148}}\n";

  static final String SAMPLE_CSV =
      "id,name,score,vector,rating,tags,address\n"
    + "0,ada,72.76,\"[0.683,0.048,0.309,0.942]\",1,[],\"{\"\"city\"\":\"\"Oslo\"\",\"\"zip\"\":10000}\"\n"
    + "1,grace,70.77,\"[0.091,0.903,0.451,0.369]\",3,[76],\"{\"\"city\"\":\"\"Kyoto\"\",\"\"zip\"\":10037}\"\n"
    + "2,alan,69.04,\"[0.762,0.783,0.998,0.919]\",4,\"[26,13]\",\"{\"\"city\"\":\"\"Tunis\"\",\"\"zip\"\":10074}\"\n"
    + "3,edsger,74.99,\"[0.387,0.798,0.177,0.151]\",1,\"[56,30,85]\",\"{\"\"city\"\":\"\"Lyon\"\",\"\"zip\"\":10111}\"\n"
    + "4,barbara,82.6,\"[0.172,0.159,0.587,0.274]\",,[],\"{\"\"city\"\":\"\"Quito\"\",\"\"zip\"\":10148}\"\n";

  @Test
  void writesNestedSampleRowsInEachTextFormat() throws Exception {
    try (VectorSchemaRoot root = SampleData.create(allocator, 5)) {
      assertThat(render(OutputFormat.TABLE, root)).isEqualTo(SAMPLE_TABLE);
      assertThat(render(OutputFormat.JSONL, root)).isEqualTo(SAMPLE_JSONL);
      assertThat(render(OutputFormat.CSV, root)).isEqualTo(SAMPLE_CSV);
    }
  }

  @Test
  void tenthRowHasANullList() throws Exception {
    try (VectorSchemaRoot root = SampleData.create(allocator, 11)) {
      assertThat(render(OutputFormat.JSONL, root).lines().skip(10).findFirst().orElseThrow())
          .contains("\"rating\":5,\"tags\":null,");
    }
  }

  private VectorSchemaRoot scalars() {
    Schema schema = new Schema(List.of(
        new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("b", FieldType.nullable(ArrowType.Binary.INSTANCE), null),
        new Field("d", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null),
        new Field("ts", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)), null),
        new Field("utc", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")), null),
        new Field("paris", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MILLISECOND, "Europe/Paris")), null),
        new Field("f", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("h", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null),
        new Field("u", FieldType.nullable(new ArrowType.Int(64, false)), null)));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    VarCharVector s = (VarCharVector) root.getVector("s");
    s.setSafe(0, "a, \"quoted\"\nline é".getBytes(StandardCharsets.UTF_8));
    s.setSafe(1, new byte[0]);
    s.setNull(2);
    ((VarBinaryVector) root.getVector("b")).setSafe(0, new byte[] {1, 2, 3, (byte) 0xff});
    ((DateDayVector) root.getVector("d")).setSafe(0, 19_874);
    ((TimeStampMicroVector) root.getVector("ts")).setSafe(0, 1_717_156_800_500_000L);
    ((TimeStampMicroVector) root.getVector("ts")).setSafe(1, -1L);
    ((TimeStampMicroTZVector) root.getVector("utc")).setSafe(0, 1_717_156_800_000_000L);
    ((TimeStampMilliTZVector) root.getVector("paris")).setSafe(0, 1_717_156_800_000L);
    Float8Vector f = (Float8Vector) root.getVector("f");
    f.setSafe(0, Double.NaN);
    f.setSafe(1, Double.NEGATIVE_INFINITY);
    f.setSafe(2, 1e-7);
    ((Float4Vector) root.getVector("h")).setSafe(0, 0.1f);
    ((UInt8Vector) root.getVector("u")).setSafe(0, -1L);
    root.setRowCount(3);
    return root;
  }

  @Test
  void writesScalarsAsJson() throws Exception {
    try (VectorSchemaRoot root = scalars()) {
      assertThat(render(OutputFormat.JSONL, root)).isEqualTo(
          "{\"s\":\"a, \\\"quoted\\\"\\nline é\",\"b\":\"AQID/w==\",\"d\":\"2024-05-31\","
              + "\"ts\":\"2024-05-31T12:00:00.5\",\"utc\":\"2024-05-31T12:00:00Z\","
              + "\"paris\":\"2024-05-31T14:00:00+02:00\",\"f\":\"NaN\",\"h\":0.1,\"u\":18446744073709551615}\n"
              + "{\"s\":\"\",\"b\":null,\"d\":null,\"ts\":\"1969-12-31T23:59:59.999999\",\"utc\":null,\"paris\":null,"
              + "\"f\":\"-Infinity\",\"h\":null,\"u\":null}\n"
              + "{\"s\":null,\"b\":null,\"d\":null,\"ts\":null,\"utc\":null,\"paris\":null,\"f\":1.0E-7,\"h\":null,"
              + "\"u\":null}\n");
    }
  }

  @Test
  void quotesCsvCellsOnlyWhenNeededAndTellsEmptyFromNull() throws Exception {
    try (VectorSchemaRoot root = scalars()) {
      assertThat(render(OutputFormat.CSV, root)).isEqualTo(
          "s,b,d,ts,utc,paris,f,h,u\n"
              + "\"a, \"\"quoted\"\"\nline é\",AQID/w==,2024-05-31,2024-05-31T12:00:00.5,2024-05-31T12:00:00Z,"
              + "2024-05-31T14:00:00+02:00,NaN,0.1,18446744073709551615\n"
              + "\"\",,,1969-12-31T23:59:59.999999,,,-Infinity,,\n"
              + ",,,,,,1.0E-7,,\n");
    }
  }

  @Test
  void tableEscapesControlCharactersAndShowsNulls() throws Exception {
    try (VectorSchemaRoot root = scalars()) {
      assertThat(render(OutputFormat.TABLE, root)).isEqualTo(
          " s                   | b        | d          | ts                         | utc                  "
              + "| paris                     |         f |    h |                    u\n"
              + "---------------------+----------+------------+----------------------------+----------------------"
              + "+---------------------------+-----------+------+----------------------\n"
              + " a, \"quoted\"\\nline é | AQID/w== | 2024-05-31 | 2024-05-31T12:00:00.5      | 2024-05-31T12:00:00Z "
              + "| 2024-05-31T14:00:00+02:00 |       NaN |  0.1 | 18446744073709551615\n"
              + "                     | null     | null       | 1969-12-31T23:59:59.999999 | null                 "
              + "| null                      | -Infinity | null |                 null\n"
              + " null                | null     | null       | null                       | null                 "
              + "| null                      |    1.0E-7 | null |                 null\n");
    }
  }

  @Test
  void tableAlignsRowsOfSeveralBatchesAndCutsLongCells() throws Exception {
    Schema schema = new Schema(List.of(new Field("text", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    try (VectorSchemaRoot first = VectorSchemaRoot.create(schema, allocator);
        VectorSchemaRoot second = VectorSchemaRoot.create(schema, allocator)) {
      first.allocateNew();
      ((VarCharVector) first.getVector(0)).setSafe(0, "short".getBytes(StandardCharsets.UTF_8));
      first.setRowCount(1);
      second.allocateNew();
      ((VarCharVector) second.getVector(0)).setSafe(0, "x".repeat(50).getBytes(StandardCharsets.UTF_8));
      second.setRowCount(1);
      // The first rows are held back until the widths are known, whichever batch brings them.
      assertThat(render(OutputFormat.TABLE, first, second)).isEqualTo(
          " text\n"
              + "-".repeat(TableWriter.MAX_WIDTH + 2) + "\n"
              + " short\n"
              + " " + "x".repeat(37) + "...\n");
    }
  }

  @Test
  void tableWidensForRowsAfterTheFirstThousand() throws Exception {
    Schema schema = new Schema(List.of(new Field("text", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    try (VectorSchemaRoot first = VectorSchemaRoot.create(schema, allocator);
        VectorSchemaRoot second = VectorSchemaRoot.create(schema, allocator)) {
      first.allocateNew();
      for (int i = 0; i < TableWriter.ALIGNED_ROWS; i++) {
        ((VarCharVector) first.getVector(0)).setSafe(i, "a".getBytes(StandardCharsets.UTF_8));
      }
      first.setRowCount(TableWriter.ALIGNED_ROWS);
      second.allocateNew();
      ((VarCharVector) second.getVector(0)).setSafe(0, "longer".getBytes(StandardCharsets.UTF_8));
      second.setRowCount(1);
      assertThat(render(OutputFormat.TABLE, first, second)).isEqualTo(
          " text\n"
              + "------\n"
              + " a\n".repeat(TableWriter.ALIGNED_ROWS)
              + " longer\n");
    }
  }

  @Test
  void tableOfNoRowsIsItsHeader() throws Exception {
    try (VectorSchemaRoot root = SampleData.create(allocator, 0)) {
      assertThat(render(OutputFormat.TABLE, root)).isEqualTo(
          " id | name | score | vector | rating | tags | address\n"
              + "----+------+-------+--------+--------+------+---------\n");
    }
  }

  @Test
  void writesAnArrowIpcFileThatReadsBack() throws Exception {
    Path out = dir.resolve("out.arrow");
    try (VectorSchemaRoot root = SampleData.create(allocator, 7)) {
      try (RowWriter w = OutputFormat.ARROW.binary(out, allocator)) {
        w.start(root.getSchema());
        w.write(root);
        w.write(root);
        assertThat(w.finish()).isEqualTo(14);
      }
      try (ArrowFileReader r = new ArrowFileReader(FileChannel.open(out), allocator)) {
        assertThat(r.getVectorSchemaRoot().getSchema()).isEqualTo(SampleData.schema());
        assertThat(r.getRecordBlocks()).hasSize(2);
        assertThat(r.loadNextBatch()).isTrue();
        assertThat(r.getVectorSchemaRoot().contentToTSVString()).isEqualTo(root.contentToTSVString());
      }
    }
  }
}
