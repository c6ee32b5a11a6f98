package dev.javelin.core.internal.write;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.DeletedSlots;
import dev.javelin.format.Gather;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Overlay;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * One attempt of an update in Lance's mode {@code REWRITE_COLUMNS} (what its merge-insert does
 * for a subset of columns): every fragment holding a matching row gets one new data file with
 * the assigned columns for all its physical rows (rows that do not match keep their value), and
 * those fields' slots in its older files are tombstoned.
 */
final class ColumnRewrite {
  private ColumnRewrite() {}

  static UpdateResult once(Dataset at, String filter, List<Updater.Assignment> set) {
    Manifest read = at.manifest();
    UpdateReads reads = UpdateReads.perFragment(at, filter, set);
    List<LanceField> outFields = new ArrayList<>();
    set.forEach(a -> outFields.add(a.field()));
    // The new files hold the assigned fields under their existing ids.
    LanceSchema outSchema = new LanceSchema(outFields, Map.of());
    List<Fragment> updated = new ArrayList<>();
    Set<Integer> modified = new TreeSet<>();
    try (UpdateFiles files = new UpdateFiles(at)) {
      long count = files.rewriteFragments(read.fragments(), outSchema, reads.where(), f -> new Pass(at, f, reads,
          set, file -> {
            modified.addAll(file.fields());
            updated.add(tombstoned(f, file));
          }));
      if (count == 0) {
        return new UpdateResult(at, 0);
      }
      Transaction txn = Transaction.update(read.version(), updated, List.of(), List.of(), new ArrayList<>(modified),
          List.of(), TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS);
      return files.commit(txn, count, null);
    } catch (IOException e) {
      throw new UncheckedIOException("Update failed: " + at.location(), e);
    }
  }

  /** One fragment's new file: the assigned columns of all its physical rows, deleted ones included. */
  private static final class Pass implements UpdateFiles.FragmentPass {
    private final Dataset at;
    private final Fragment f;
    private final UpdateReads reads;
    private final List<Updater.Assignment> set;
    private final Consumer<DataFile> rewritten;
    private final DeletedSlots slots;

    Pass(Dataset at, Fragment f, UpdateReads reads, List<Updater.Assignment> set, Consumer<DataFile> rewritten)
        throws IOException {
      this.at = at;
      this.f = f;
      this.reads = reads;
      this.set = set;
      this.rewritten = rewritten;
      this.slots = new DeletedSlots(Deletes.deletedRows(at.store(), f, at.allocator()), f.physicalRows());
    }

    @Override
    public ArrowReader reader() throws IOException {
      return new DatasetReader(at.store(), at.location(), List.of(f), reads.fields(), ReadOptions.DEFAULT_BATCH_SIZE,
          at.allocator());
    }

    @Override
    public long write(FragmentWriter w, VectorSchemaRoot batch, int[] sel) throws IOException {
      int n = batch.getRowCount();
      writeColumns(w, batch, n, sel, set, slots, at.allocator());
      return sel == null ? n : sel.length;
    }

    @Override
    public void rewritten(UpdateFiles.NewFile file) {
      if (slots.position() != f.physicalRows()) {
        throw new IllegalStateException("Fragment " + f.id() + " has " + f.physicalRows() + " rows but "
            + slots.position() + " were rewritten: " + at.location());
      }
      rewritten.accept(file.file());
    }
  }

  // Writes one batch of the assigned columns: new values where the filter matched (all rows
  // without a filter), old values elsewhere, widened over the deleted slots.
  private static void writeColumns(FragmentWriter w, VectorSchemaRoot batch, int n, int[] sel,
      List<Updater.Assignment> set, DeletedSlots slots, BufferAllocator allocator) throws IOException {
    List<FieldVector> vectors = new ArrayList<>();
    List<FieldVector> made = new ArrayList<>();
    VectorSchemaRoot wide = null;
    try {
      for (Updater.Assignment a : set) {
        FieldVector fresh = a.value().evaluate(batch, a.arrow(), allocator);
        made.add(fresh);
        if (sel == null || sel.length == n) {
          vectors.add(fresh);
          continue;
        }
        int[] source = new int[n];
        int[] row = new int[n];
        for (int i = 0; i < n; i++) {
          row[i] = i;
        }
        for (int i : sel) {
          source[i] = 1;
        }
        FieldVector mixed = Gather.gather(new FieldVector[] {batch.getVector(a.field().name()), fresh}, source, row,
            allocator);
        made.add(mixed);
        vectors.add(mixed);
      }
      VectorSchemaRoot view = UpdateFiles.view(vectors, n);
      wide = DeletedSlots.widen(view, slots.next(n), allocator);
      w.write(wide == null ? view : wide);
    } finally {
      if (wide != null) {
        wide.close();
      }
      made.forEach(FieldVector::close);
    }
  }

  // The fragment with the new file last and the rewritten fields' slots in its older files
  // tombstoned (-2); a file left with no live field is dropped, as Lance's update_columns does.
  private static Fragment tombstoned(Fragment f, DataFile file) {
    Set<Integer> rewritten = new HashSet<>(file.fields());
    TableProtos.DataFragment.Builder b = f.proto().toBuilder().clearFiles();
    for (DataFile old : f.files()) {
      DataFile.withoutFields(old.proto(), rewritten).ifPresent(b::addFiles);
    }
    b.addFiles(file.proto());
    // The new file holds every row's newest value (read through overlays): overlays of these fields end.
    return Fragment.fromProto(Overlay.withoutFields(b.build(), rewritten));
  }
}
