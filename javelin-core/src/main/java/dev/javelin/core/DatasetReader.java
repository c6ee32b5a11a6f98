package dev.javelin.core;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.Fragment;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams the rows of a list of fragments, in order, through the {@link ArrowReader} interface.
 * One fragment's files are open at a time; a batch never spans two fragments.
 */
final class DatasetReader extends ArrowReader {
  private final ObjectStore store;
  private final String location;
  private final List<Fragment> fragments;
  private final List<LanceField> fields;
  private final int batchSize;
  private final Schema schema;
  private int nextFragment;
  // The open fragment: a reader per data file, and its stream of batches.
  private final List<LanceFileReader> files = new ArrayList<>();
  private final List<ArrowReader> streams = new ArrayList<>();
  private List<FragmentFiles.Part> parts = List.of();

  DatasetReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, BufferAllocator allocator) {
    super(allocator);
    this.store = store;
    this.location = location;
    this.fragments = fragments;
    this.fields = fields;
    this.batchSize = batchSize;
    List<Field> arrow = new ArrayList<>();
    for (LanceField f : fields) {
      arrow.add(f.toArrow());
    }
    this.schema = new Schema(arrow);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    if (fields.isEmpty()) {
      return false;
    }
    while (true) {
      if (!streams.isEmpty() && loadFromOpenFragment()) {
        return true;
      }
      closeFragment();
      if (nextFragment >= fragments.size()) {
        return false;
      }
      openFragment(fragments.get(nextFragment++));
    }
  }

  private boolean loadFromOpenFragment() throws IOException {
    FieldVector[] out = new FieldVector[fields.size()];
    int rows = -1;
    for (int i = 0; i < streams.size(); i++) {
      ArrowReader s = streams.get(i);
      if (!s.loadNextBatch()) {
        return false;
      }
      VectorSchemaRoot root = s.getVectorSchemaRoot();
      if (rows >= 0 && root.getRowCount() != rows) {
        throw new IllegalStateException("Data files of one fragment returned batches of " + rows + " and "
            + root.getRowCount() + " rows: " + location);
      }
      rows = root.getRowCount();
      for (var e : parts.get(i).outputs.entrySet()) {
        out[e.getKey()] = root.getVector(e.getValue());
      }
    }
    List<FieldVector> nulls = FragmentFiles.complete(out, parts, fields, rows, allocator);
    List<FieldVector> vectors = List.of(out);
    List<Field> fs = new ArrayList<>();
    for (FieldVector v : vectors) {
      fs.add(v.getField());
    }
    // The file readers own these vectors: unload them into our root (sharing buffers) and
    // leave the wrapper unclosed, so the file readers can refill them.
    VectorSchemaRoot wrapper = new VectorSchemaRoot(fs, vectors, rows);
    try (ArrowRecordBatch records = new VectorUnloader(wrapper).getRecordBatch()) {
      loadRecordBatch(records);
    } finally {
      nulls.forEach(FieldVector::close);
    }
    return true;
  }

  private void openFragment(Fragment fragment) throws IOException {
    parts = FragmentFiles.plan(fragment, fields, location);
    try {
      for (FragmentFiles.Part p : parts) {
        LanceFileReader r = FragmentFiles.open(store, p, allocator);
        files.add(r);
        if (r.numRows() != fragment.physicalRows()) {
          throw new IllegalStateException("Data file " + p.file.path() + " has " + r.numRows()
              + " rows but fragment " + fragment.id() + " has " + fragment.physicalRows() + ": " + location);
        }
        streams.add(r.read(ReadOptions.builder().columns(FragmentFiles.columnNames(r, p, location))
            .batchSize(batchSize).build()));
      }
    } catch (IOException | RuntimeException e) {
      closeFragment();
      throw e;
    }
  }

  private void closeFragment() throws IOException {
    IOException first = null;
    for (ArrowReader s : streams) {
      try {
        s.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    for (LanceFileReader f : files) {
      try {
        f.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    streams.clear();
    files.clear();
    if (first != null) {
      throw first;
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    closeFragment();
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
