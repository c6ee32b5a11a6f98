package dev.javelin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Where the rows of a read command go: a {@link RowWriter} of the chosen format, to standard
 * output or a file, and the "(N rows)" line on standard error at the end. Stops early, without
 * an error, when whoever reads standard output has gone ({@code | head}).
 */
final class RowOutput implements AutoCloseable {
  private final BaseCommand command;
  private final Path output;
  private final PrintWriter text;
  private final RowWriter writer;
  private boolean stopped;

  RowOutput(BaseCommand command, OutputFormat format, Path output, BufferAllocator allocator) throws IOException {
    if (format.binary() && output == null) {
      throw new InvalidInputException("--format " + format + " writes " + format.fileKind()
          + "; name it with --output");
    }
    this.command = command;
    this.output = output;
    if (format.binary()) {
      this.text = null;
      this.writer = format.binary(output, allocator);
    } else {
      this.text = output == null ? command.out()
          : new PrintWriter(Files.newBufferedWriter(output, StandardCharsets.UTF_8));
      this.writer = format.text(text);
    }
  }

  /** Writes every batch of a reader; returns the rows written. */
  long writeAll(ArrowReader batches) throws IOException {
    VectorSchemaRoot root = batches.getVectorSchemaRoot();
    writer.start(root.getSchema());
    while (batches.loadNextBatch()) {
      writer.write(root);
      if (text != null && text.checkError()) {
        stopped = true;
        break;
      }
    }
    return writer.finish();
  }

  /** Writes one batch; returns the rows written. */
  long writeOne(VectorSchemaRoot root) throws IOException {
    writer.start(root.getSchema());
    writer.write(root);
    return writer.finish();
  }

  /** Reports the count on standard error, unless the reader of the output went away. */
  void report(long count) {
    command.flushOut();
    if (stopped) {
      return;
    }
    String rows = Formats.count(count, "row");
    if (output != null) {
      command.err().printf(Locale.ROOT, "Wrote %s to %s%n", rows, output);
    } else {
      command.err().printf(Locale.ROOT, "(%s)%n", rows);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      writer.close();
    } finally {
      if (text != null && output != null) {
        text.close();
      }
    }
  }
}
