package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every error ends in one line on stderr, nothing on stdout, and a fixed exit code. */
class ErrorsTest extends CliTestBase {
  private static void assertFails(Result r, int code, String err) {
    assertThat(r.code).as(r.toString()).isEqualTo(code);
    assertThat(r.err).as(r.toString()).isEqualTo(err);
    assertThat(r.out).as(r.toString()).isEmpty();
  }

  private static final String HELP_READ = "Try 'javelin file read --help' for more information.\n";
  private static final String HELP_WRITE = "Try 'javelin file write --help' for more information.\n";

  /** A Lance footer: offsets, counts, version, magic. */
  private static byte[] footer(long colMeta, long cmo, long gbo, int globalBuffers, int columns, int major, int minor) {
    ByteBuffer b = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(colMeta).putLong(cmo).putLong(gbo).putInt(globalBuffers).putInt(columns);
    b.putShort((short) major).putShort((short) minor).put("LANC".getBytes());
    return b.array();
  }

  private Path withFooter(String name, byte[] body, byte[] footer) throws Exception {
    byte[] all = new byte[body.length + footer.length];
    System.arraycopy(body, 0, all, 0, body.length);
    System.arraycopy(footer, 0, all, body.length, footer.length);
    return bytes(name, all);
  }

  @Test
  void missingFile() {
    String missing = path("missing.lance");
    assertFails(run("file", "read", missing), 2, "javelin: File not found: " + missing + "\n");
    assertFails(run("file", "info", missing), 2, "javelin: File not found: " + missing + "\n");
  }

  @Test
  void notALanceFile() throws Exception {
    Path csv = text("data.csv", "id,name\n1,ada\n2,grace\n3,alan\n4,edsger\n5,barbara\n");
    assertFails(run("file", "info", csv.toString()), 2,
        "javelin: Not a Lance file (no LANC magic at the end): " + csv + "\n");
    assertFails(run("file", "read", csv.toString()), 2,
        "javelin: Not a Lance file (no LANC magic at the end): " + csv + "\n");
  }

  @Test
  void fileTooSmallToBeLance() throws Exception {
    Path tiny = text("tiny.lance", "LANC\n");
    assertFails(run("file", "info", tiny.toString()), 2,
        "javelin: File is too small to be a Lance file (5 bytes): " + tiny + "\n");
  }

  @Test
  void directoryIsNotAFile() {
    assertFails(run("file", "info", dir.toString()), 2, "javelin: Not a Lance file but a directory: " + dir + "\n");
    assertFails(run("file", "read", dir.toString()), 2, "javelin: Not a Lance file but a directory: " + dir + "\n");
  }

  @Test
  void footerPointingPastTheEnd() throws Exception {
    Path f = withFooter("cut.lance", new byte[64], footer(1000, 1000, 1000, 1, 0, 2, 1));
    assertFails(run("file", "info", f.toString()), 2,
        "javelin: Footer offsets point past the end of the file: " + f + "\n");
  }

  @Test
  void garbledColumnMetadata() throws Exception {
    // Column 0's metadata claims a 5-byte field but holds none of it.
    byte[] body = new byte[96];
    body[0] = 0x0a;
    body[1] = 0x05;
    ByteBuffer tables = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
    tables.putLong(64, 0).putLong(72, 2).putLong(80, 64).putLong(88, 0);
    Path f = withFooter("garbled.lance", body, footer(0, 64, 80, 1, 1, 2, 1));
    Result r = run("file", "info", f.toString());
    assertThat(r.code).isEqualTo(2);
    assertThat(r.out).isEmpty();
    assertThat(r.err).startsWith("javelin: Metadata of column 0 is not valid: ").endsWith(": " + f + "\n");
    assertThat(r.err.lines()).hasSize(1);
  }

  @Test
  void unsupportedVersions() throws Exception {
    Path legacy = withFooter("legacy.lance", new byte[64], footer(0, 0, 0, 1, 0, 0, 2));
    assertFails(run("file", "info", legacy.toString()), 2,
        "javelin: Legacy Lance file version 0.2 is not supported: " + legacy + "\n");
    Path future = withFooter("future.lance", new byte[64], footer(0, 0, 0, 1, 0, 3, 7));
    assertFails(run("file", "read", future.toString()), 2,
        "javelin: Unsupported Lance file version 3.7: " + future + "\n");
  }

  @Test
  void verboseAddsTheStackTrace() throws Exception {
    Path csv = text("data.csv", "id,name\n1,ada\n2,grace\n3,alan\n4,edsger\n5,barbara\n");
    for (String[] args : new String[][] {
        {"file", "info", csv.toString(), "--verbose"}, {"--verbose", "file", "info", csv.toString()}}) {
      Result r = run(args);
      assertThat(r.code).isEqualTo(2);
      assertThat(r.err).startsWith("javelin: Not a Lance file (no LANC magic at the end): " + csv + "\n"
          + "dev.javelin.format.exceptions.CorruptFileException: Not a Lance file");
      assertThat(r.err).contains("\tat dev.javelin.format.");
    }
  }

  @Test
  void badRowsSpec() {
    String f = path("x.lance");
    assertFails(run("file", "read", f, "--rows", "5-9"), 2,
        "javelin: Invalid value for option '--rows': '5-9' is not START:END (for example 0:100, 50: or :10)\n"
            + HELP_READ);
    assertFails(run("file", "read", f, "--rows", "9:5"), 2,
        "javelin: Invalid value for option '--rows': '9:5' ends before it starts\n" + HELP_READ);
    assertFails(run("file", "read", f, "--take", "1,x"), 2,
        "javelin: Invalid value for option '--take' (ROW): 'x' is not a long\n" + HELP_READ);
  }

  @Test
  void conflictingOrMissingReadOptions() throws Exception {
    Path f = withFooter("future.lance", new byte[64], footer(0, 0, 0, 1, 0, 3, 7));
    assertFails(run("file", "read", f.toString(), "--rows", "0:5", "--take", "1"), 2,
        "javelin: --rows and --take cannot be used together\n");
    assertFails(run("file", "read", f.toString(), "--format", "arrow"), 2,
        "javelin: --format arrow writes an Arrow IPC file; name it with --output\n");
    assertFails(run("file", "read", f.toString(), "--batch-size", "0"), 2,
        "javelin: --batch-size must be at least 1, got 0\n");
    assertFails(run("file", "read", f.toString(), "--format", "xml"), 2,
        "javelin: Invalid value for option '--format': 'xml' is not a format (expected table, jsonl, csv, arrow or parquet)\n"
            + HELP_READ);
    assertFails(run("file", "read"), 2,
        "javelin: Missing required parameter: 'IN.lance'\n" + HELP_READ);
  }

  @Test
  void badSchemaSpec() throws Exception {
    Path csv = text("in.csv", "a,b\n1,2\n");
    String out = path("out.lance");
    assertFails(run("file", "write", out, "--input", csv.toString(), "--schema", "a:int33,b:utf8"), 2,
        "javelin: Invalid value for option '--schema': column 'a' has unknown type 'int33' (known: bool, "
            + "int8..int64, uint8..uint64, float16, float32, float64, utf8, large_utf8, binary, large_binary, "
            + "date32, date64, time32[s|ms], time64[us|ns], timestamp[s|ms|us|ns(,TZ)], decimal(P,S), "
            + "fixed_size_binary[N])\n" + HELP_WRITE);
    assertFails(run("file", "write", out, "--input", csv.toString(), "--schema", "a:int64,b"), 2,
        "javelin: Invalid value for option '--schema': 'b' has no type (expected NAME:TYPE, e.g. b:int64)\n"
            + HELP_WRITE);
    assertFails(run("file", "write", out, "--input", csv.toString(), "--schema", "a:int64"), 2,
        "javelin: --schema does not give a type for column 'b' of " + csv + " (it must name every column)\n");
    assertThat(Files.exists(dir.resolve("out.lance"))).isFalse();
  }

  @Test
  void unreadableCsvCellNamesRowAndColumn() throws Exception {
    Path csv = text("in.csv", "id,score\n1,0.5\n2,high\n");
    String out = path("out.lance");
    assertFails(run("file", "write", out, "--input", csv.toString(), "--schema", "id:int64,score:float64"), 2,
        "javelin: Cannot read 'high' as float64 at row 2, column 'score' of " + csv + " (line 3)\n");
    Path big = text("big.csv", "id,score\n300,0.5\n");
    assertFails(run("file", "write", out, "--input", big.toString(), "--schema", "id:int8,score:float64"), 2,
        "javelin: Cannot read '300' as int8 at row 1, column 'id' of " + big + " (line 2)\n");
    assertThat(Files.exists(dir.resolve("out.lance"))).isFalse();
  }

  @Test
  void badCsvShapes() throws Exception {
    String out = path("out.lance");
    Path ragged = text("ragged.csv", "a,b\n1,2\n3\n");
    assertFails(run("file", "write", out, "--input", ragged.toString()), 2,
        "javelin: Row 2 of " + ragged + " (line 3) has 1 cell, but the header has 2\n");
    Path open = text("open.csv", "a\n\"never closed\n");
    assertFails(run("file", "write", out, "--input", open.toString()), 2,
        "javelin: Quoted cell starting on line 2 of " + open + " is never closed\n");
    Path empty = text("empty.csv", "");
    assertFails(run("file", "write", out, "--input", empty.toString()), 2,
        "javelin: CSV file " + empty + " is empty; it needs a header line\n");
    Path nulls = text("nulls.csv", "a,b\n1,\n");
    assertFails(run("file", "write", out, "--input", nulls.toString(), "--schema", "a:int64,b:utf8"), 2,
        "javelin: Empty cell at row 1, column 'b' of " + nulls
            + " (line 2), but --schema declares it not null (write 'b:utf8?' to allow nulls)\n");
  }

  @Test
  void badWriteArguments() throws Exception {
    Path csv = text("in.csv", "a\n1\n");
    String out = path("out.lance");
    String missing = path("missing.csv");
    assertFails(run("file", "write", out, "--input", missing), 2, "javelin: Input file not found: " + missing + "\n");
    assertFails(run("file", "write", out, "--input", dir.toString()), 2,
        "javelin: Input is a directory, not a file: " + dir + "\n");
    assertFails(run("file", "write", out, "--input", csv.toString(), "--version", "3.0"), 2,
        "javelin: Invalid value for option '--version': Unknown Lance file version '3.0' (expected 2.0, 2.1 or 2.2)\n"
            + HELP_WRITE);
    assertFails(run("file", "write", out, "--input", csv.toString(), "--max-page-bytes", "12x"), 2,
        "javelin: Invalid value for option '--max-page-bytes': '12x' is not a size (for example 1048576, 512K or 8M)\n"
            + HELP_WRITE);
    assertFails(run("file", "write", out, "--input", csv.toString(), "--max-page-bytes", "100"), 2,
        "javelin: --max-page-bytes must be at least 1K (1024 bytes), got 100\n");
    assertFails(run("file", "write", out), 2,
        "javelin: Missing required option: '--input=IN'\n" + HELP_WRITE);
    Path existing = text("existing.lance", "x");
    assertFails(run("file", "write", existing.toString(), "--input", csv.toString()), 2,
        "javelin: Output file already exists (use --force to replace it): " + existing + "\n");
    assertThat(Files.readString(existing)).isEqualTo("x");
  }

  @Test
  void schemaIsForCsvOnly() throws Exception {
    Path arrow = dir.resolve("sample.arrow");
    SampleData.writeArrow(arrow, allocator, 3);
    String out = path("out.lance");
    assertFails(run("file", "write", out, "--input", arrow.toString(), "--schema", "id:int64"), 2,
        "javelin: --schema applies to CSV and JSON Lines input only; " + arrow + " is an Arrow IPC file, which has its own schema\n");
  }

  @Test
  void brokenArrowInput() throws Exception {
    byte[] junk = new byte[64];
    System.arraycopy("ARROW1".getBytes(), 0, junk, 0, 6);
    Path arrow = bytes("junk.arrow", junk);
    Result r = run("file", "write", path("out.lance"), "--input", arrow.toString());
    assertThat(r.code).as(r.toString()).isEqualTo(2);
    assertThat(r.err).startsWith("javelin: Cannot read " + arrow + " as an Arrow IPC file: ");
    assertThat(r.err.lines()).hasSize(1);
    assertThat(Files.exists(dir.resolve("out.lance"))).isFalse();
  }
}
