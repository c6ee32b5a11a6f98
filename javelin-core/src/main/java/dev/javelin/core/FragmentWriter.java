package dev.javelin.core;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.io.ObjectInfo;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes batches into new fragments of one data file each, starting a new file every
 * {@code maxRowsPerFile} rows. Keeps the keys of every file it created, so a failed write or
 * commit can delete them.
 */
final class FragmentWriter {
  private static final Logger LOG = Logger.getLogger(FragmentWriter.class.getName());

  private final ObjectStore store;
  private final LanceSchema schema;
  private final LanceFileVersion version;
  private final WriteParams params;
  private final List<Fragment> fragments = new ArrayList<>();
  private final List<String> written = new ArrayList<>();
  private LanceFileWriter current;
  private String currentName;

  FragmentWriter(ObjectStore store, LanceSchema schema, LanceFileVersion version, WriteParams params) {
    this.store = store;
    this.schema = schema;
    this.version = version;
    this.params = params;
  }

  /**
   * Writes a batch whose columns are already in the dataset's field order (see {@link SchemaCheck}).
   * The caller keeps ownership of the batch.
   */
  void write(VectorSchemaRoot batch) throws IOException {
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
        WriteOptions.builder().version(version).build());
  }

  private void finishFile() throws IOException {
    LanceFileWriter w = current;
    current = null;
    w.close();
    String key = "data/" + currentName;
    long size = 0;
    for (ObjectInfo o : store.list(key)) {
      if (o.key().equals(key)) {
        size = o.size();
      }
    }
    fragments.add(Fragment.of(DataFile.of(currentName, w.fieldColumnIndices(), version, size), w.numRows()));
  }

  /** Finishes the last file and returns the new fragments (ids unassigned), in write order. */
  List<Fragment> finish() throws IOException {
    if (current != null) {
      if (current.numRows() == 0) {
        current.abort();
        current = null;
      } else {
        finishFile();
      }
    }
    return List.copyOf(fragments);
  }

  /** Keys of every file created so far. */
  List<String> writtenKeys() {
    return List.copyOf(written);
  }

  /** Deletes every file this writer created (after a failed write or commit). */
  void deleteAll() {
    if (current != null) {
      current.abort();
      current = null;
    }
    for (String key : written) {
      try {
        store.delete(key);
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "Could not delete " + key + " of a failed write in " + store.location(), e);
      }
    }
  }

  static List<FieldVector> inOrder(VectorSchemaRoot batch, int[] order) {
    List<FieldVector> out = new ArrayList<>();
    for (int i : order) {
      out.add(batch.getVector(i));
    }
    return out;
  }
}
