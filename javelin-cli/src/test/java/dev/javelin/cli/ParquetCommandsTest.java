package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Parquet in (create, append, overwrite, add-columns, file write) and out (scan, file read). */
class ParquetCommandsTest extends CliTestBase {
  static final String SCHEMA = "message m {\n"
      + "  required int64 id;\n"
      + "  optional int32 small (INTEGER(16,true));\n"
      + "  optional binary name (STRING);\n"
      + "  optional double score;\n"
      + "  optional float ratio;\n"
      + "  optional boolean ok;\n"
      + "  optional binary raw;\n"
      + "  optional int32 day (DATE);\n"
      + "  optional int64 at (TIMESTAMP(MICROS,true));\n"
      + "  optional int64 local (TIMESTAMP(MILLIS,false));\n"
      + "  optional int64 price (DECIMAL(10,2));\n"
      + "  optional fixed_len_byte_array(9) big (DECIMAL(20,4));\n"
      + "  optional group tags (LIST) { repeated group list { optional binary element (STRING); } }\n"
      + "  optional group address { optional binary city (STRING); required int32 zip; }\n"
      + "  optional int96 legacy;\n"
      + "}";

  // What scan prints for the three rows ParquetCommandsTest#people writes.
  static final String ROWS = "{\"id\":1,\"small\":-3,\"name\":\"ann\",\"score\":1.5,\"ratio\":0.25,\"ok\":true,"
      + "\"raw\":\"AQID\",\"day\":\"2022-01-08\",\"at\":\"2023-11-14T22:13:20.123456Z\","
      + "\"local\":\"2023-11-14T22:13:20.123\",\"price\":12.50,\"big\":12345678901.2345,"
      + "\"tags\":[\"a\",null,\"b\"],\"address\":{\"city\":\"Oslo\",\"zip\":150},\"legacy\":\"2023-02-24T01:00:00\"}\n"
      + "{\"id\":2,\"small\":null,\"name\":null,\"score\":null,\"ratio\":null,\"ok\":null,\"raw\":null,\"day\":null,"
      + "\"at\":null,\"local\":null,\"price\":null,\"big\":null,\"tags\":null,\"address\":null,\"legacy\":null}\n"
      + "{\"id\":3,\"small\":null,\"name\":\"\",\"score\":-2.5,\"ratio\":null,\"ok\":false,\"raw\":null,\"day\":null,"
      + "\"at\":null,\"local\":null,\"price\":-0.05,\"big\":null,\"tags\":[],\"address\":{\"city\":null,\"zip\":7},"
      + "\"legacy\":null}\n";

  Path people(CompressionCodecName codec) throws Exception {
    return ParquetFiles.write(dir.resolve("people.parquet"), SCHEMA, codec, rows -> {
      Group a = rows.newRow().append("id", 1L).append("small", -3).append("name", "ann").append("score", 1.5)
          .append("ratio", 0.25f).append("ok", true).append("raw", Binary.fromConstantByteArray(new byte[] {1, 2, 3}))
          .append("day", 19000).append("at", 1_700_000_000_123_456L).append("local", 1_700_000_000_123L)
          .append("price", 1250L)
          .append("big", Binary.fromConstantByteArray(new byte[] {0, 0, 0, 0x70, 0x48, (byte) 0x86, 0x0d, (byte) 0xdf,
              0x79}));
      Group tags = a.addGroup("tags");
      tags.addGroup("list").append("element", "a");
      tags.addGroup("list");
      tags.addGroup("list").append("element", "b");
      a.addGroup("address").append("city", "Oslo").append("zip", 150);
      a.add("legacy", new NanoTime(2_460_000, 3_600_000_000_000L));
      rows.add(a);
      rows.add(rows.newRow().append("id", 2L));
      Group c = rows.newRow().append("id", 3L).append("name", "").append("score", -2.5).append("ok", false)
          .append("price", -5L);
      c.addGroup("tags");
      c.addGroup("address").append("zip", 7);
      rows.add(c);
    });
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodecName.class, names = {"UNCOMPRESSED", "SNAPPY", "ZSTD", "GZIP", "LZ4_RAW"})
  void createReadsEveryCommonTypeNestedAndNullAcrossRowGroups(CompressionCodecName codec) throws Exception {
    Path in = people(codec);
    Result create = run("create", path("ds"), "--input", in.toString());
    assertThat(create.code).as(create.toString()).isZero();
    assertThat(create.out).isEmpty();
    assertThat(create.err).isEqualTo("Created " + path("ds") + ": version 1, 3 rows in 1 fragment (Lance 2.1 files)\n");
    Result scan = run("scan", path("ds"), "--format", "jsonl");
    assertThat(scan.out).isEqualTo(ROWS);
  }

  @Test
  void dryRunPrintsTheColumnsAndCommitsNothing() throws Exception {
    Result r = run("create", path("ds"), "--input", people(CompressionCodecName.SNAPPY).toString(), "--dry-run");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("Columns of " + path("people.parquet") + ":\n"
        + "  id       int64 not null\n"
        + "  small    int16\n"
        + "  name     utf8\n"
        + "  score    float64\n"
        + "  ratio    float32\n"
        + "  ok       bool\n"
        + "  raw      binary\n"
        + "  day      date32\n"
        + "  at       timestamp[us,UTC]\n"
        + "  local    timestamp[ms]\n"
        + "  price    decimal(10,2)\n"
        + "  big      decimal(20,4)\n"
        + "  tags     list<utf8>\n"
        + "  address  struct<city: utf8, zip: int32>\n"
        + "  legacy   timestamp[ns]\n");
    assertThat(r.err).isEqualTo("Dry run: nothing committed\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();
  }

  @Test
  void scanWritesParquetThatReadsBackEqual() throws Exception {
    assertThat(run("create", path("ds"), "--input", people(CompressionCodecName.ZSTD).toString()).code).isZero();
    Result out = run("scan", path("ds"), "--format", "parquet", "--output", path("out.parquet"));
    assertThat(out.code).as(out.toString()).isZero();
    assertThat(out.err).isEqualTo("Wrote 3 rows to " + path("out.parquet") + "\n");
    Result again = run("create", path("ds2"), "--input", path("out.parquet"));
    assertThat(again.code).as(again.toString()).isZero();
    assertThat(run("scan", path("ds2"), "--format", "jsonl").out).isEqualTo(ROWS);

    Result file = run("file", "write", path("people.lance"), "--input", path("out.parquet"));
    assertThat(file.code).as(file.toString()).isZero();
    Result read = run("file", "read", path("people.lance"), "--format", "parquet", "--output", path("file.parquet"));
    assertThat(read.code).as(read.toString()).isZero();
    assertThat(run("create", path("ds3"), "--input", path("file.parquet")).code).isZero();
    assertThat(run("scan", path("ds3"), "--format", "jsonl").out).isEqualTo(ROWS);

    Result noOutput = run("scan", path("ds"), "--format", "parquet");
    assertThat(noOutput.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(noOutput.err).isEqualTo("javelin: --format parquet writes a Parquet file; name it with --output\n");
  }

  @Test
  void appendOverwriteAndAddColumnsTakeParquet() throws Exception {
    Path in = people(CompressionCodecName.SNAPPY);
    assertThat(run("create", path("ds"), "--input", in.toString()).code).isZero();
    Result append = run("append", path("ds"), "--input", in.toString());
    assertThat(append.code).as(append.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "jsonl").out).isEqualTo(ROWS + ROWS);

    ParquetFiles.write(dir.resolve("rank.parquet"), "message m { optional int32 rank; }", CompressionCodecName.SNAPPY,
        rows -> {
          for (int i = 0; i < 6; i++) {
            rows.add(rows.newRow().append("rank", 10 * i));
          }
        });
    Result add = run("add-columns", path("ds"), "--input", path("rank.parquet"));
    assertThat(add.code).as(add.toString()).isZero();
    assertThat(run("scan", path("ds"), "--columns", "id,rank", "--format", "csv").out)
        .isEqualTo("id,rank\n1,0\n2,10\n3,20\n1,30\n2,40\n3,50\n");

    Result overwrite = run("overwrite", path("ds"), "--input", path("rank.parquet"));
    assertThat(overwrite.code).as(overwrite.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "csv").out).isEqualTo("rank\n0\n10\n20\n30\n40\n50\n");
  }

  @Test
  void appendNamesTheColumnWhoseTypeDiffers() throws Exception {
    assertThat(run("create", path("ds"), "--input", people(CompressionCodecName.SNAPPY).toString()).code).isZero();
    ParquetFiles.write(dir.resolve("ids.parquet"), "message m { required int32 id; }", CompressionCodecName.SNAPPY,
        rows -> rows.add(rows.newRow().append("id", 4)));
    Result r = run("append", path("ds"), "--input", path("ids.parquet"));
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: Column 'id' of " + path("ids.parquet") + " is int32, but in the dataset "
        + path("ds") + " it is int64\n");
    assertThat(run("versions", path("ds")).out.split("\n")).hasSize(2);
  }

  @Test
  void scanColumnsTakesNestedFieldsAndSystemColumns() throws Exception {
    assertThat(run("create", path("ds"), "--input", people(CompressionCodecName.SNAPPY).toString()).code).isZero();
    Result r = run("scan", path("ds"), "--columns", "id,address.city,address.zip,_rowid,_rowaddr", "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("id,address.city,address.zip,_rowid,_rowaddr\n1,Oslo,150,0,0\n2,,,1,1\n3,,7,2,2\n");

    Result unknown = run("scan", path("ds"), "--columns", "address.town");
    assertThat(unknown.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(unknown.err).isEqualTo("javelin: No column 'address.town' in " + path("ds") + " (its columns: id, small, "
        + "name, score, ratio, ok, raw, day, at, local, price, big, tags, address, address.city, address.zip, legacy, "
        + "_rowid, _rowaddr)\n");
    Result versions = run("scan", path("ds"), "--columns", "_row_created_at_version");
    assertThat(versions.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(versions.err).startsWith("javelin: No column '_row_created_at_version' in " + path("ds")
        + " (row versions are kept only in datasets with stable row ids) (its columns: id, ");
  }

  @Test
  void mapsLegacyListsAndRepeatedFieldsRead() throws Exception {
    String schema = "message m {\n"
        + "  required int32 id;\n"
        + "  optional group attrs (MAP) { repeated group key_value { required binary key (STRING);"
        + " optional int64 value; } }\n"
        + "  optional group legacy (LIST) { repeated int32 array; }\n"
        + "  repeated binary words (STRING);\n"
        + "}";
    ParquetFiles.write(dir.resolve("maps.parquet"), schema, CompressionCodecName.SNAPPY, rows -> {
      Group a = rows.newRow().append("id", 1);
      Group attrs = a.addGroup("attrs");
      attrs.addGroup("key_value").append("key", "x").append("value", 10L);
      attrs.addGroup("key_value").append("key", "y");
      Group legacy = a.addGroup("legacy");
      legacy.add("array", 4);
      legacy.add("array", 5);
      a.add("words", "hi");
      a.add("words", "there");
      rows.add(a);
      rows.add(rows.newRow().append("id", 2));
    });
    Result create = run("create", path("ds"), "--input", path("maps.parquet"), "--version", "2.2");
    assertThat(create.code).as(create.toString()).isZero();
    Result describe = run("create", path("other"), "--input", path("maps.parquet"), "--dry-run");
    assertThat(describe.out).isEqualTo("Columns of " + path("maps.parquet") + ":\n"
        + "  id      int32 not null\n"
        + "  attrs   map<utf8, int64>\n"
        + "  legacy  list<int32>\n"
        + "  words   list<utf8> not null\n");
    assertThat(run("scan", path("ds"), "--format", "jsonl").out).isEqualTo(
        "{\"id\":1,\"attrs\":[{\"key\":\"x\",\"value\":10},{\"key\":\"y\",\"value\":null}],"
            + "\"legacy\":[4,5],\"words\":[\"hi\",\"there\"]}\n"
            + "{\"id\":2,\"attrs\":null,\"legacy\":null,\"words\":[]}\n");
  }

  @Test
  void aFileThatOnlyStartsLikeParquetIsRefusedAndNothingIsCreated() throws Exception {
    bytes("fake.parquet", new byte[] {'P', 'A', 'R', '1', 0, 0, 'i', 'd', 0, 0});
    Result r = run("create", path("ds"), "--input", path("fake.parquet"));
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: Cannot read " + path("fake.parquet") + " as Parquet: " + path("fake.parquet")
        + " is not a Parquet file (length is too low: 10)\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();
  }

  @Test
  void aDamagedPageIsRefusedAndNothingIsCreated() throws Exception {
    byte[] file = Files.readAllBytes(people(CompressionCodecName.UNCOMPRESSED));
    for (int i = 4; i < 40; i++) {
      file[i] ^= 0x5a;
    }
    bytes("damaged.parquet", file);
    Result r = run("create", path("ds"), "--input", path("damaged.parquet"));
    assertThat(r.code).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).startsWith("javelin: Cannot read " + path("damaged.parquet") + " as Parquet (after row 0): ");
    assertThat(r.err.split("\n")).hasSize(1);
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();
  }
}
