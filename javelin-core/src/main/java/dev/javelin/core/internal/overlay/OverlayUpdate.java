package dev.javelin.core.internal.overlay;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.write.FragmentWriter;
import dev.javelin.core.internal.write.UpdateFiles;
import dev.javelin.core.internal.write.UpdateFiles.FragmentPass;
import dev.javelin.core.internal.write.UpdateReads;
import dev.javelin.core.internal.write.Updater;
import dev.javelin.format.Gather;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Overlay;
import dev.javelin.table.Transaction;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
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
    UpdateReads reads = UpdateReads.perFragment(at, filter, set);
    BufferAllocator allocator = at.allocator();
    LanceSchema outSchema = overlaySchema(read, set);
    List<Fragment> updated = new ArrayList<>();
    Set<Integer> modified = new TreeSet<>();
    try (UpdateFiles files = new UpdateFiles(at)) {
      long count = files.rewriteFragments(read.fragments(), outSchema, reads.where(), f -> new FragmentPass() {
        @Override
        public ArrowReader reader() throws IOException {
          return new DatasetReader(at.store(), at.location(), List.of(f), reads.fields(),
              ReadOptions.DEFAULT_BATCH_SIZE, List.of(DatasetReader.Meta.ROW_ADDR), false, allocator);
        }

        @Override
        public long write(FragmentWriter w, VectorSchemaRoot batch, int[] sel) throws IOException {
          return sel != null && sel.length == 0 ? 0 : OverlayUpdate.write(w, batch, sel, set, outSchema, allocator);
        }

        @Override
        public void rewritten(UpdateFiles.NewFile written) {
          DataFile file = withoutRowOffset(written.file(), outSchema.fields().get(0).id());
          modified.addAll(file.fields());
          updated.add(f.withOverlay(Overlay.of(file, written.matched())));
        }
      });
      if (count == 0) {
        return new UpdateResult(at, 0);
      }
      Transaction txn = Transaction.overlayUpdate(read.version(), updated, new ArrayList<>(modified));
      return files.commit(txn, count, null);
    } catch (IOException e) {
      throw new UncheckedIOException("Overlay update failed: " + at.location(), e);
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
      // A view over vectors this method owns and closes below.
      w.write(UpdateFiles.view(vectors, n));
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
