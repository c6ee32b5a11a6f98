package dev.javelin.core.internal.write;

import dev.javelin.common.Tasks;
import dev.javelin.common.ThreadPools;
import dev.javelin.core.Session;
import dev.javelin.core.WriteParams;
import dev.javelin.core.internal.SessionState;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes batches into new fragments of one data file each, starting a new file every
 * {@code maxRowsPerFile} rows. Keeps the keys of every file it created, so a failed write or
 * commit can delete them.
 *
 * <p>Most of a file's cost is encoding its pages, which happens when it is closed; a full file is
 * therefore closed on the session's CPU pool while the next one fills, up to one file per thread
 * of that pool at a time (which bounds the memory held). Each file's bytes depend only on its
 * rows, and fragments are returned in write order, so the result is the same as closing them in
 * turn.
 */
public final class FragmentWriter {
  private final ThreadPools pools;
  private final ObjectStore store;
  private final LanceSchema schema;
  private final LanceFileVersion version;
  private final WriteParams params;
  private final String operation;
  private final NullCheck nullCheck;
  private final List<Fragment> fragments = new ArrayList<>();
  private final PendingFiles written;
  /** Files being closed in the background, oldest first; their fragments are added in order. */
  private final Deque<Future<Fragment>> closing = new ArrayDeque<>();
  private LanceFileWriter current;
  private String currentName;

  /**
   * A writer closing its files on the {@link Session#defaultSession() default session}'s pools.
   *
   * @param operation what the data is written for, as a noun ("append", "update"), for the
   *     message of a refused batch
   */
  public FragmentWriter(ObjectStore store, LanceSchema schema, LanceFileVersion version, WriteParams params,
      String operation) {
    this(SessionState.of(Session.defaultSession()).pools(), store, schema, version, params, operation);
  }

  /** A writer closing its files on the CPU pool of {@code pools} (a dataset's session's). */
  public FragmentWriter(ThreadPools pools, ObjectStore store, LanceSchema schema, LanceFileVersion version,
      WriteParams params, String operation) {
    this.pools = pools;
    this.store = store;
    this.schema = schema;
    this.version = version;
    this.params = params;
    this.operation = operation;
    this.nullCheck = NullCheck.of(schema);
    this.written = new PendingFiles(store);
  }

  /**
   * Writes a batch whose columns are already in the dataset's field order (see {@link SchemaCheck}).
   * The caller keeps ownership of the batch. Every write of rows into a dataset comes through
   * here, so this is where data that breaks the schema's nullability is refused, before any of
   * the batch is written.
   *
   * @throws dev.javelin.table.exceptions.NullValueException if a non-nullable field holds nulls (the
   *     caller deletes what was written before, see {@link #deleteAll()})
   */
  public void write(VectorSchemaRoot batch) throws IOException {
    nullCheck.check(batch, operation, store.location());
    int rows = batch.getRowCount();
    int done = 0;
    while (done < rows) {
      if (current == null) {
        open();
      }
      long room = params.maxRowsPerFile() - current.numRows();
      int n = (int) Math.min(Math.min(room, rows - done), params.maxRowsPerGroup());
      if (done == 0 && n == rows) {
        current.write(batch);
      } else {
        try (VectorSchemaRoot slice = batch.slice(done, n)) {
          current.write(slice);
        }
      }
      done += n;
      if (current.numRows() >= params.maxRowsPerFile()) {
        finishFile();
      }
    }
  }

  private void open() throws IOException {
    currentName = UUID.randomUUID() + ".lance";
    String key = "data/" + currentName;
    written.add(key);
    current = LanceFileWriter.create(store.newOutputFile(key), schema,
        WriteOptions.builder().version(version).maxPageBytes(params.maxPageBytes()).build());
  }

  // Hands the full file to the pool, first waiting for the oldest one if as many are closing
  // as the pool has threads.
  private void finishFile() throws IOException {
    LanceFileWriter w = current;
    String name = currentName;
    current = null;
    try {
      while (closing.size() >= pools.cpuThreads()) {
        collectOldest();
      }
    } catch (IOException | RuntimeException e) {
      // An earlier file failed: this one is never closed, so release it now.
      try {
        w.abort();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    closing.add(pools.cpu().submit(() -> close(w, name)));
  }

  private Fragment close(LanceFileWriter w, String name) throws IOException {
    w.close();
    long size = w.fileSize();
    return Fragment.of(DataFile.of(name, w.fieldColumnIndices(), version, size), w.numRows());
  }

  private void collectOldest() throws IOException {
    fragments.add(Tasks.join(closing.removeFirst(), "finishing a data file in " + store.location()));
  }

  /**
   * Hands the last file to the pool without waiting for it: {@link #finish()} then collects it.
   * Lets a caller with several writers overlap their last files' encoding.
   */
  void closeAsync() throws IOException {
    if (current != null) {
      if (current.numRows() == 0) {
        current.abort();
        current = null;
      } else {
        finishFile();
      }
    }
  }

  /** Finishes the last file and returns the new fragments (ids unassigned), in write order. */
  public List<Fragment> finish() throws IOException {
    closeAsync();
    while (!closing.isEmpty()) {
      collectOldest();
    }
    return List.copyOf(fragments);
  }

  /** Keys of every file created so far. */
  public List<String> writtenKeys() {
    return written.keys();
  }

  /** Deletes every file this writer created (after a failed write or commit). */
  public void deleteAll() {
    if (current != null) {
      current.abort();
      current = null;
    }
    // Let background closes end (a failed one has removed its own file) before deleting.
    // A failure is reported by whoever called finish(); the file is deleted below either way.
    while (!closing.isEmpty()) {
      Tasks.awaitQuietly(closing.removeFirst());
    }
    written.close();
  }

  public static List<FieldVector> inOrder(VectorSchemaRoot batch, int[] order) {
    List<FieldVector> out = new ArrayList<>();
    for (int i : order) {
      out.add(batch.getVector(i));
    }
    return out;
  }
}
