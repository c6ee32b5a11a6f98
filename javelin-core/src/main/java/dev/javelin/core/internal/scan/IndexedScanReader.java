package dev.javelin.core.internal.scan;

import dev.javelin.core.internal.overlay.OverlayApplier;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams a scan in fragment order where some fragments give only chosen rows (the candidates an
 * index found, read by physical offset with the format's take) and the others are read in full
 * by a {@link DatasetReader}. Batches have the same columns as {@link DatasetReader}'s.
 */
final class IndexedScanReader extends ArrowReader {
  private final DataFileCache dataFiles;
  private final ObjectStore store;
  private final String location;
  private final List<Fragment> fragments;
  private final Map<Long, long[]> chosen;
  private final List<LanceField> fields;
  private final int batchSize;
  private final boolean rowId;
  private final boolean rowAddr;
  private final Schema schema;
  private int next;
  // The current source: a full reader of a run of uncovered fragments, or a covered fragment's rows.
  private ArrowReader full;
  private Fragment taking;
  private long[] takeRows;
  private int takePos;

  IndexedScanReader(DataFileCache dataFiles, ObjectStore store, String location, List<Fragment> fragments,
      Map<Long, long[]> chosen, List<LanceField> fields, int batchSize, boolean rowId, boolean rowAddr,
      BufferAllocator allocator) {
    super(allocator);
    this.dataFiles = dataFiles;
    this.store = store;
    this.location = location;
    this.fragments = fragments;
    this.chosen = chosen;
    this.fields = fields;
    this.batchSize = batchSize;
    this.rowId = rowId;
    this.rowAddr = rowAddr;
    List<Field> arrow = new ArrayList<>();
    fields.forEach(f -> arrow.add(f.toArrow()));
    if (rowId) {
      arrow.add(metaField(DatasetReader.ROW_ID));
    }
    if (rowAddr) {
      arrow.add(metaField(DatasetReader.ROW_ADDR));
    }
    this.schema = new Schema(arrow);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    if (schema.getFields().isEmpty()) {
      return false;
    }
    while (true) {
      if (full != null) {
        if (full.loadNextBatch()) {
          VectorSchemaRoot in = full.getVectorSchemaRoot();
          try (ArrowRecordBatch records = new VectorUnloader(in).getRecordBatch()) {
            loadRecordBatch(records);
          }
          return true;
        }
        full.close();
        full = null;
      }
      if (taking != null) {
        if (takePos < takeRows.length) {
          loadTaken();
          return true;
        }
        taking = null;
      }
      if (next >= fragments.size()) {
        return false;
      }
      Fragment f = fragments.get(next);
      long[] rows = chosen.get(f.id());
      if (rows != null) {
        next++;
        taking = f;
        takeRows = rows;
        takePos = 0;
        continue;
      }
      int end = next;
      while (end < fragments.size() && !chosen.containsKey(fragments.get(end).id())) {
        end++;
      }
      full = new DatasetReader(store, location, fragments.subList(next, end), fields, batchSize, rowId, rowAddr,
          allocator);
      next = end;
    }
  }

  // Takes the next batch of the covered fragment's chosen rows.
  private void loadTaken() throws IOException {
    int n = Math.min(batchSize, takeRows.length - takePos);
    long[] rows = Arrays.copyOfRange(takeRows, takePos, takePos + n);
    takePos += n;
    FieldVector[] out = new FieldVector[fields.size()];
    List<VectorSchemaRoot> opened = new ArrayList<>();
    List<FieldVector> made = new ArrayList<>();
    try {
      List<FragmentFiles.Part> parts = FragmentFiles.plan(taking, fields, location);
      for (FragmentFiles.Part part : parts) {
        if (part.rowsOnly) {
          continue;
        }
        try (LanceFileReader reader = FragmentFiles.openCached(dataFiles, store, part, allocator)) {
          VectorSchemaRoot got = reader.take(rows, FragmentFiles.columnNames(reader, part, location));
          opened.add(got);
          for (var e : part.outputs.entrySet()) {
            out[e.getKey()] = got.getVector(e.getValue());
          }
        }
      }
      made.addAll(FragmentFiles.complete(out, parts, fields, n, allocator));
      try (OverlayApplier overlays = OverlayApplier.open(store, location, taking, fields, allocator)) {
        if (overlays != null) {
          made.addAll(overlays.apply(out, rows));
        }
      }
      List<FieldVector> vectors = new ArrayList<>(Arrays.asList(out));
      long base = taking.id() << 32;
      for (int k = 0; k < (rowId ? 1 : 0) + (rowAddr ? 1 : 0); k++) {
        UInt8Vector addr = new UInt8Vector(metaField(k == 0 && rowId ? DatasetReader.ROW_ID : DatasetReader.ROW_ADDR),
            allocator);
        made.add(addr);
        addr.allocateNew(n);
        for (int i = 0; i < n; i++) {
          addr.set(i, base | rows[i]);
        }
        addr.setValueCount(n);
        vectors.add(addr);
      }
      List<Field> fs = new ArrayList<>();
      vectors.forEach(v -> fs.add(v.getField()));
      VectorSchemaRoot wrapper = new VectorSchemaRoot(fs, vectors, n);
      try (ArrowRecordBatch records = new VectorUnloader(wrapper).getRecordBatch()) {
        loadRecordBatch(records);
      }
    } finally {
      made.forEach(FieldVector::close);
      opened.forEach(VectorSchemaRoot::close);
    }
  }

  private static Field metaField(String name) {
    return new Field(name, FieldType.notNullable(new ArrowType.Int(64, false)), null);
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (full != null) {
      full.close();
      full = null;
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
