package dev.javelin.core.internal.write;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.WriteParams;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.deletion.DeletionMerge;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowLineage;
import dev.javelin.table.rowids.RowVersionSequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/**
 * One attempt of an update in Lance's mode {@code REWRITE_ROWS} (its {@code UpdateBuilder}): the
 * matching rows are read whole, the assignments applied, and the rows written to new fragments
 * batch by batch; their old copies are deleted through the touched fragments' deletion files (a
 * fragment left without live rows is removed). Rebases over concurrent deletes and updates of
 * other rows of the same fragments ({@link MergeMoved}).
 */
final class RowRewrite {
  private RowRewrite() {}

  static UpdateResult once(Dataset at, String filter, List<Updater.Assignment> set) {
    Manifest read = at.manifest();
    List<LanceField> fields = at.schema().fields();
    BufferAllocator allocator = at.allocator();
    Updater.Assignment[] byIndex = new Updater.Assignment[fields.size()];
    set.forEach(a -> byIndex[a.index()] = a);
    Map<Long, RoaringBitmap> moved = new TreeMap<>();
    MovedRowIds ids = UpdateReads.stableRowIds(read) ? new MovedRowIds(at.store(), read) : null;
    long count = 0;
    try (UpdateFiles files = new UpdateFiles(at)) {
      FragmentWriter writer = files.writer(at.schema(), WriteParams.defaults());
      ScanBuilder scan = at.newScan().withRowAddress();
      if (!UpdateReads.everyRow(filter)) {
        scan.filter(filter);
      }
      try (ArrowReader r = scan.build()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        while (r.loadNextBatch()) {
          int n = root.getRowCount();
          if (n == 0) {
            continue;
          }
          UInt8Vector addr = (UInt8Vector) root.getVector(fields.size());
          for (int i = 0; i < n; i++) {
            long a = addr.get(i);
            moved.computeIfAbsent(a >>> 32, k -> new RoaringBitmap()).add((int) (a & 0xFFFFFFFFL));
            if (ids != null) {
              ids.add(a);
            }
          }
          List<FieldVector> vectors = new ArrayList<>();
          List<FieldVector> made = new ArrayList<>();
          try {
            for (int c = 0; c < fields.size(); c++) {
              if (byIndex[c] == null) {
                vectors.add(root.getVector(c));
              } else {
                FieldVector v = byIndex[c].value().evaluate(root, byIndex[c].arrow(), allocator);
                made.add(v);
                vectors.add(v);
              }
            }
            writer.write(UpdateFiles.view(vectors, n));
          } finally {
            made.forEach(FieldVector::close);
          }
          count += n;
        }
      }
      if (count == 0) {
        return new UpdateResult(at, 0);
      }
      List<Fragment> added = writer.finish();
      if (ids != null) {
        added = ids.attach(added);
      }
      Map<Long, Fragment> byId = new HashMap<>();
      read.fragments().forEach(f -> byId.put(f.id(), f));
      List<Fragment> updated = new ArrayList<>();
      List<Long> removed = new ArrayList<>();
      for (Map.Entry<Long, RoaringBitmap> e : moved.entrySet()) {
        Fragment f = byId.get(e.getKey());
        DeletionMerge.merge(at.store(), f, Deletes.deletedRows(at.store(), f, allocator), e.getValue(),
            read.version(), files.pending(), allocator).ifPresentOrElse(updated::add, () -> removed.add(f.id()));
      }
      List<Integer> assigned = new ArrayList<>();
      set.forEach(a -> assigned.add(a.field().id()));
      Transaction txn = Transaction.update(read.version(), updated, removed, added, List.of(), assigned,
          TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS);
      return files.commit(txn, count, new MergeMoved(at.table(), moved, allocator));
    } catch (IOException e) {
      throw new UncheckedIOException("Update failed: " + at.location(), e);
    }
  }

  /**
   * The stable row ids and created-at versions of the moved rows, in the order they were
   * written, so that each new fragment carries its rows' old ids (Lance keeps a row's id across
   * an update) and their creation versions; the commit sets last-updated to the new version.
   * Reads each touched fragment's sequences once.
   */
  private static final class MovedRowIds {
    private final ObjectStore store;
    private final Map<Long, Fragment> byId = new HashMap<>();
    private final Map<Long, RowIdSequence> idsOf = new HashMap<>();
    private final Map<Long, Optional<RowVersionSequence>> createdOf = new HashMap<>();
    private final RowLineage lineage = new RowLineage();

    MovedRowIds(ObjectStore store, Manifest read) {
      this.store = store;
      read.fragments().forEach(f -> byId.put(f.id(), f));
    }

    void add(long address) {
      long frag = address >>> 32;
      long offset = address & 0xFFFFFFFFL;
      Fragment f = byId.get(frag);
      RowIdSequence seq = idsOf.computeIfAbsent(frag, k -> f.rowIdSequence(store)
          .orElseThrow(() -> new IllegalStateException("Fragment " + k + " has no row ids: " + store.location())));
      Optional<RowVersionSequence> versions = createdOf.computeIfAbsent(frag, k -> f.createdAtVersions(store));
      // Lance counts a row without a recorded creation version as created at version 1.
      lineage.add(seq.get(offset), versions.map(v -> v.get(offset)).orElse(1L), RowLineage.NONE);
    }

    List<Fragment> attach(List<Fragment> fragments) {
      long moved = lineage.remaining(0);
      long wrote = fragments.stream().mapToLong(Fragment::physicalRows).sum();
      if (wrote != moved) {
        throw new IllegalStateException("Wrote " + wrote + " rows but moved " + moved + ": " + store.location());
      }
      List<Fragment> out = new ArrayList<>();
      fragments.forEach(f -> out.add(lineage.next(f)));
      return out;
    }
  }
}
