package dev.javelin.compat;

import dev.javelin.format.LanceFileVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;
import org.lance.util.Range;

/**
 * Thin wrappers over the real Lance's file-level API ({@code org.lance:lance-core}, JNI), the
 * referee for Javelin's files. Every method opens and closes the native reader or writer itself, so
 * a test cannot leak one.
 */
final class LanceOracle {
  /**
   * Rows per batch the oracle asks lance-core for. Generated files hold at most a few thousand
   * rows, so this reads them in one batch: lance-core 7.0.0 fails ("drain was called on primitive
   * field decoder ... but the decoder was never awaited") reading a 2.0 list column whose items
   * span several pages in batches of 1000 rows, its own files included.
   */
  static final int BATCH_SIZE = 8192;

  /**
   * Where each call is noted before it enters native code. A panic in lance-core aborts the whole
   * JVM with no Java stack trace; this file then names the call, the file and the case.
   */
  static final Path TRAIL = Path.of("target", "lance-oracle-last-call.txt");

  private static volatile String currentCase = "";

  private LanceOracle() {}

  /** Names the case that the next calls belong to, for {@link #TRAIL}. */
  static void currentCase(String description) {
    currentCase = description;
  }

  private static void trail(String call, Path file) {
    try {
      Files.createDirectories(TRAIL.getParent());
      Files.writeString(TRAIL, call + " " + file + "\n" + currentCase + "\n");
    } catch (IOException e) {
      // The trail is a debugging aid only.
    }
  }

  /** Writes the batches to a new file with lance-core, in format "2.0" or "2.1". */
  static void write(Path path, LanceFileVersion version, BufferAllocator allocator, List<VectorSchemaRoot> batches)
      throws IOException {
    trail("write " + version, path);
    try (LanceFileWriter w = LanceFileWriter.open(
        path.toString(), allocator, null, Optional.of(version.toString()), Map.of())) {
      for (VectorSchemaRoot b : batches) {
        w.write(b);
      }
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("lance-core could not close its writer for " + path, e);
    }
  }

  /** Writes one batch with lance-core. */
  static void write(Path path, LanceFileVersion version, BufferAllocator allocator, VectorSchemaRoot batch)
      throws IOException {
    write(path, version, allocator, List.of(batch));
  }

  /** The row count lance-core reads from the file's metadata. */
  static long numRows(Path path, BufferAllocator allocator) throws IOException {
    trail("numRows", path);
    try (LanceFileReader r = LanceFileReader.open(path.toString(), allocator)) {
      return r.numRows();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("lance-core could not close its reader for " + path, e);
    }
  }

  /** The schema lance-core reads from the file. */
  static Schema schema(Path path, BufferAllocator allocator) throws IOException {
    trail("schema", path);
    try (LanceFileReader r = LanceFileReader.open(path.toString(), allocator)) {
      return r.schema();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("lance-core could not close its reader for " + path, e);
    }
  }

  /** Reads every row of every column; the caller closes the table. */
  static Table readAll(Path path, BufferAllocator allocator) throws IOException {
    return read(path, allocator, null, null);
  }

  /**
   * Reads rows and columns, in lance-core's batches of {@link #BATCH_SIZE} rows; the caller closes
   * the table.
   *
   * @param columns top-level column names, or null for all; lance-core returns them in the file's
   *     order, not in the order given
   * @param ranges row ranges {start, end} (end exclusive), read in the order given; null for all rows
   */
  static Table read(Path path, BufferAllocator allocator, List<String> columns, List<long[]> ranges)
      throws IOException {
    trail("read columns " + columns + " ranges " + describe(ranges), path);
    List<Range> lanceRanges = null;
    if (ranges != null) {
      lanceRanges = new ArrayList<>();
      for (long[] r : ranges) {
        lanceRanges.add(Range.of(Math.toIntExact(r[0]), Math.toIntExact(r[1])));
      }
    }
    try (LanceFileReader r = LanceFileReader.open(path.toString(), allocator);
        ArrowReader batches = r.readAll(columns, lanceRanges, BATCH_SIZE)) {
      return Table.drain(batches, allocator);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("lance-core could not close its reader for " + path, e);
    }
  }

  private static String describe(List<long[]> ranges) {
    if (ranges == null) {
      return "all";
    }
    StringBuilder b = new StringBuilder();
    for (long[] r : ranges) {
      b.append(b.length() == 0 ? "" : ",").append(r[0]).append(':').append(r[1]);
    }
    return b.toString();
  }
}
