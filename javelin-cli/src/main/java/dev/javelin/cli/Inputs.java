package dev.javelin.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/** Opens the input of {@code file write}, telling an Arrow IPC file, an Arrow IPC stream and a CSV apart. */
final class Inputs {
  /** The kinds of input {@code file write} takes. */
  enum Kind {
    /** Starts with the magic "ARROW1". */
    ARROW_FILE("an Arrow IPC file"),
    /** Starts with the 0xFFFFFFFF continuation marker of an IPC message. */
    ARROW_STREAM("an Arrow IPC stream"),
    /** Anything else. */
    CSV("a CSV file");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  private static final byte[] ARROW_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CONTINUATION = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};

  private Inputs() {}

  static Kind detect(Path path) throws IOException {
    byte[] head = new byte[6];
    int n;
    try (InputStream in = Files.newInputStream(path)) {
      n = in.readNBytes(head, 0, head.length);
    }
    if (n == 6 && Arrays.equals(head, ARROW_MAGIC)) {
      return Kind.ARROW_FILE;
    }
    if (n >= 4 && Arrays.equals(Arrays.copyOf(head, 4), CONTINUATION)) {
      return Kind.ARROW_STREAM;
    }
    return Kind.CSV;
  }

  /**
   * Opens an input as batches of rows. The caller closes the reader.
   *
   * @param spec column types for a CSV, or null to infer them
   * @throws InvalidInputException if a spec is given for an Arrow input, or the CSV header is bad
   */
  static ArrowReader open(Path path, Kind kind, SchemaSpec spec, BufferAllocator allocator) throws IOException {
    if (spec != null && kind != Kind.CSV) {
      throw new InvalidInputException("--schema applies to CSV input only; " + path + " is " + kind.label
          + ", which has its own schema");
    }
    switch (kind) {
      case ARROW_FILE:
        return new ArrowFileReader(Files.newByteChannel(path, StandardOpenOption.READ), allocator);
      case ARROW_STREAM:
        return new ArrowStreamReader(new BufferedInputStream(Files.newInputStream(path), 1 << 16), allocator);
      default:
        return CsvReader.open(path, spec, allocator, CsvReader.BATCH_ROWS);
    }
  }
}
