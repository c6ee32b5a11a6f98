package dev.javelin.core.internal.overlay;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.WriteParams;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.write.FragmentWriter;
import dev.javelin.core.internal.write.Updater;
import dev.javelin.format.Gather;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.DataFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Overlay;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * An update written as data overlays (Javelin's extension, see {@code docs/overlays.md}): each
 * fragment holding a matching row gets one overlay file with the assigned columns' new values for
 * the matching rows only, and the update commits as an {@code Update} in mode
 * {@code JAVELIN_OVERLAY}. Data files, deletion files and row addresses stay; reads take the new
 * values from the overlay. Rows are matched and values computed on the rows as they read now
 * (older overlays applied), so an update reads its own earlier updates.
 */
public final class OverlayUpdate {
  private OverlayUpdate() {}

  public static UpdateResult once(Dataset at, String filter, List<Updater.Assignment> set) {
    Manifest read = at.manifest();
    String location = at.location();
    if ((read.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
      // The overlaid rows' last-updated versions would have to move too; not done yet.
      throw TableErrors.stableRowIdsUnsupported(location, read.version(), OperationKind.UPDATE);
    }
    LanceSchema schema = at.schema();
    BufferAllocator allocator = at.allocator();
    ObjectStore store = at.store();
    BoundExpression where = filter == null || filter.isBlank() ? null : Expression.parse(filter).bindFilter(schema);
    Set<String> need = new HashSet<>();
    set.forEach(a -> {
      need.add(a.field().name());
      need.addAll(a.value().columns());
    });
    if (where != null) {
      need.addAll(where.columns());
    }
    List<String> readNames = new ArrayList<>();
    schema.fields().forEach(f -> {
      if (need.contains(f.name())) {
        readNames.add(f.name());
      }
    });
    List<LanceField> readFields = at.fields(readNames);
    LanceSchema outSchema = overlaySchema(read, set);
    List<FragmentWriter> writers = new ArrayList<>();
    List<Fragment> updated = new ArrayList<>();
    Set<Integer> modified = new TreeSet<>();
    boolean handedOver = false;
    long count = 0;
    try {
      for (Fragment f : read.fragments()) {
        if (f.physicalRows() == 0) {
          continue;
        }
        FragmentWriter w = new FragmentWriter(SessionState.of(at).pools(), store, outSchema, at.fileVersion(),
            WriteParams.builder().maxRowsPerFile(f.physicalRows()).build(), "update");
        writers.add(w);
        long matched = 0;
        try (ArrowReader in = new DatasetReader(store, location, List.of(f), readFields,
            ReadOptions.DEFAULT_BATCH_SIZE, List.of(DatasetReader.Meta.ROW_ADDR), false, allocator)) {
          while (in.loadNextBatch()) {
            VectorSchemaRoot batch = in.getVectorSchemaRoot();
            int[] sel = where == null ? null : where.select(batch);
            if (sel != null && sel.length == 0) {
              continue;
            }
            matched += write(w, batch, sel, set, outSchema, allocator);
          }
        }
        if (matched == 0) {
          w.deleteAll();
          continue;
        }
        DataFile written = w.finish().get(0).files().get(0);
        DataFile file = withoutRowOffset(written, outSchema.fields().get(0).id());
        modified.addAll(file.fields());
        updated.add(f.withOverlay(Overlay.of(file, matched)));
        count += matched;
      }
      if (count == 0) {
        return new UpdateResult(at, 0);
      }
      List<String> keys = new ArrayList<>();
      writers.forEach(w -> keys.addAll(w.writtenKeys()));
      Transaction txn = Transaction.overlayUpdate(read.version(), updated, new ArrayList<>(modified));
      handedOver = true;
      Manifest m = at.table().newCommit(txn).cleanupOnFailure(keys).commit();
      return new UpdateResult(at.at(m), count);
    } catch (IOException e) {
      throw new UncheckedIOException("Overlay update failed: " + location, e);
    } finally {
      if (!handedOver) {
        writers.forEach(FragmentWriter::deleteAll);
      }
    }
  }

  // The overlay file's schema: the row offset column first (under an id no field of the dataset
  // has, and which the overlay's field list leaves out), then the assigned fields with their ids.
  private static LanceSchema overlaySchema(Manifest read, List<Updater.Assignment> set) {
    int max = 0;
    for (LanceField f : read.schema().flatten()) {
      max = Math.max(max, f.id());
    }
    List<LanceField> out = new ArrayList<>();
    out.add(new LanceField(max + 1, Overlay.ROW_OFFSET, "uint32", false, List.of(), Map.of()));
    set.forEach(a -> out.add(a.field()));
    return new LanceSchema(out, Map.of());
  }

  // Writes the selected rows (all when sel is null): their offsets and their new values.
  private static int write(FragmentWriter w, VectorSchemaRoot batch, int[] sel, List<Updater.Assignment> set,
      LanceSchema outSchema, BufferAllocator allocator) throws IOException {
    int n = sel == null ? batch.getRowCount() : sel.length;
    UInt8Vector addr = (UInt8Vector) batch.getVector(DatasetReader.ROW_ADDR);
    List<FieldVector> made = new ArrayList<>();
    try {
      UInt4Vector offsets = new UInt4Vector(outSchema.fields().get(0).toArrow(), allocator);
      made.add(offsets);
      offsets.allocateNew(n);
      for (int i = 0; i < n; i++) {
        offsets.set(i, (int) (addr.get(sel == null ? i : sel[i]) & 0xFFFFFFFFL));
      }
      offsets.setValueCount(n);
      List<FieldVector> vectors = new ArrayList<>();
      vectors.add(offsets);
      for (Updater.Assignment a : set) {
        FieldVector fresh = a.value().evaluate(batch, a.arrow(), allocator);
        made.add(fresh);
        if (sel != null) {
          fresh = Gather.gather(fresh, sel, allocator);
          made.add(fresh);
        }
        vectors.add(fresh);
      }
      List<Field> fields = new ArrayList<>();
      vectors.forEach(v -> fields.add(v.getField()));
      // A view over vectors this method owns and closes below; never closed itself.
      w.write(new VectorSchemaRoot(fields, vectors, n));
      return n;
    } finally {
      made.forEach(FieldVector::close);
    }
  }

  private static DataFile withoutRowOffset(DataFile written, int rowOffsetId) {
    TableProtos.DataFile.Builder b = written.proto().toBuilder().clearFields().clearColumnIndices();
    for (int i = 0; i < written.fields().size(); i++) {
      if (written.fields().get(i) != rowOffsetId) {
        b.addFields(written.fields().get(i));
        b.addColumnIndices(written.columnIndices().get(i));
      }
    }
    return DataFile.fromProto(b.build());
  }
}
