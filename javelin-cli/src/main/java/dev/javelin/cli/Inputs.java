package dev.javelin.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Opens the input of the commands that read rows from a file: Parquet, JSON Lines, an Arrow IPC
 * file or stream, or CSV, told apart by the first bytes (PAR1, ARROW1, the IPC continuation
 * marker 0xFFFFFFFF, '{') and then the name; a file that looks like something else (gzip, zip,
 * ORC, Avro, a JSON array, binary data) is refused, saying so.
 */
final class Inputs {
  static final String READS = "Javelin reads Parquet, JSON Lines, Arrow IPC and CSV";

  /** The formats of input. */
  enum Format {
    PARQUET("a Parquet file"),
    JSONL("a JSON Lines file"),
    /** Starts with the magic "ARROW1". */
    ARROW_FILE("an Arrow IPC file"),
    /** Starts with the 0xFFFFFFFF continuation marker of an IPC message. */
    ARROW_STREAM("an Arrow IPC stream"),
    CSV("a CSV file");

    final String label;

    Format(String label) {
      this.label = label;
    }

    /** Whether the format carries its own column types (so --schema does not apply). */
    boolean typed() {
      return this == PARQUET || this == ARROW_FILE || this == ARROW_STREAM;
    }
  }

  private static final byte[] PARQUET_MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ARROW_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CONTINUATION = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
  private static final int HEAD = 4096;

  private Inputs() {}

  /**
   * The format of a file, or the one forced (an Arrow input is still told file from stream).
   *
   * @throws InvalidInputException if the file is not one of the formats Javelin reads
   */
  static Format detect(Path path, Format forced) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(path)) {
      head = in.readNBytes(HEAD);
    }
    if (forced == Format.ARROW_FILE || forced == Format.ARROW_STREAM) {
      return startsWith(head, CONTINUATION) ? Format.ARROW_STREAM : Format.ARROW_FILE;
    }
    if (forced != null) {
      return forced;
    }
    if (startsWith(head, PARQUET_MAGIC)) {
      return Format.PARQUET;
    }
    if (startsWith(head, ARROW_MAGIC)) {
      return Format.ARROW_FILE;
    }
    if (startsWith(head, CONTINUATION)) {
      return Format.ARROW_STREAM;
    }
    String other = otherFormat(head);
    if (other != null) {
      throw new InvalidInputException(path + " looks like " + other + "; " + READS
          + " (--input-format forces one)");
    }
    int first = firstText(head);
    if (first == '{') {
      return Format.JSONL;
    }
    if (first == '[') {
      throw new InvalidInputException(path + " looks like a JSON array; " + READS
          + " (JSON Lines: one object per line)");
    }
    String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".parquet") || name.endsWith(".arrow") || name.endsWith(".feather")) {
      throw new InvalidInputException(path + " is named like " + (name.endsWith(".parquet") ? "Parquet" : "Arrow IPC")
          + " but does not start like it (" + describe(head) + "); " + READS);
    }
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return Format.JSONL;
    }
    return Format.CSV;
  }

  // The name of a format known by its magic bytes that Javelin does not read, or null.
  private static String otherFormat(byte[] head) {
    if (startsWith(head, new byte[] {0x1f, (byte) 0x8b})) {
      return "a gzip-compressed file";
    }
    if (startsWith(head, new byte[] {'P', 'K', 3, 4})) {
      return "a zip archive (or an Excel or other Office file)";
    }
    if (startsWith(head, "ORC".getBytes(StandardCharsets.US_ASCII))) {
      return "an ORC file";
    }
    if (startsWith(head, new byte[] {'O', 'b', 'j', 1})) {
      return "an Avro file";
    }
    if (startsWith(head, new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd})) {
      return "a zstd-compressed file";
    }
    if (startsWith(head, "BZh".getBytes(StandardCharsets.US_ASCII))) {
      return "a bzip2-compressed file";
    }
    if (startsWith(head, "%PDF".getBytes(StandardCharsets.US_ASCII))) {
      return "a PDF document";
    }
    if (startsWith(head, "SQLite format 3".getBytes(StandardCharsets.US_ASCII))) {
      return "an SQLite database";
    }
    for (byte b : head) {
      if (b == 0) {
        // Text has no NUL bytes (UTF-16 text aside, which --encoding reads).
        return startsWith(head, new byte[] {(byte) 0xff, (byte) 0xfe}) || startsWith(head, new byte[] {(byte) 0xfe,
            (byte) 0xff}) ? null : "binary data (" + describe(head) + ")";
      }
    }
    return null;
  }

  private static String describe(byte[] head) {
    StringBuilder s = new StringBuilder("first bytes");
    for (int i = 0; i < Math.min(4, head.length); i++) {
      s.append(String.format(Locale.ROOT, " %02X", head[i] & 0xff));
    }
    return head.length == 0 ? "empty" : s.toString();
  }

  // The first byte after a UTF-8 byte order mark and whitespace, or -1.
  private static int firstText(byte[] head) {
    int i = startsWith(head, new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}) ? 3 : 0;
    while (i < head.length && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
      i++;
    }
    return i < head.length ? head[i] : -1;
  }

  private static boolean startsWith(byte[] head, byte[] magic) {
    return head.length >= magic.length && Arrays.equals(Arrays.copyOf(head, magic.length), magic);
  }

  /**
   * Opens an input as batches of rows. The caller closes the reader.
   *
   * @param spec column types for a CSV or JSON Lines input, or null
   * @param target the columns to parse a CSV or JSON Lines input as when no spec is given (a
   *     dataset's, to append to it), or null to infer them
   * @throws InvalidInputException if a spec is given for a typed input, or the input is bad
   */
  static ArrowReader open(Path path, Format format, SchemaSpec spec, Schema target, InputOptions options,
      BufferAllocator allocator) throws IOException {
    if (spec != null && format.typed()) {
      throw new InvalidInputException("--schema applies to CSV and JSON Lines input only; " + path + " is "
          + format.label + ", which has its own schema");
    }
    switch (format) {
      case PARQUET:
        return ParquetInput.open(path, allocator);
      case ARROW_FILE:
        return new ArrowIpcInput(path, format.label,
            new ArrowFileReader(Files.newByteChannel(path, StandardOpenOption.READ), allocator), allocator);
      case ARROW_STREAM:
        return new ArrowIpcInput(path, format.label,
            new ArrowStreamReader(new BufferedInputStream(Files.newInputStream(path), 1 << 16), allocator), allocator);
      case JSONL: {
        Schema schema = spec != null ? spec.schema() : target;
        return JsonLinesInput.open(path, schema, options.charset(), allocator);
      }
      default: {
        SchemaSpec csvSpec = spec != null ? spec : target == null ? null : SchemaSpec.of(target, "the dataset");
        return CsvReader.open(path, csvSpec, options.charset(), delimiter(path, options), allocator,
            CsvReader.BATCH_ROWS);
      }
    }
  }

  // --delimiter, a tab for .tsv files, else null (CsvReader finds it from the header line).
  private static Character delimiter(Path path, InputOptions options) {
    if (options.delimiter != null) {
      return options.delimiter;
    }
    return path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".tsv") ? '\t' : null;
  }

  /** Refuses dictionary-encoded columns, which Javelin does not write. */
  static void checkWritable(Path path, Schema schema) {
    for (Field f : schema.getFields()) {
      if (f.getDictionary() != null) {
        throw new InvalidInputException("Column '" + f.getName() + "' of " + path
            + " is dictionary-encoded, which Javelin does not write; decode it first");
      }
    }
  }
}
