package dev.javelin.core.internal.write;

import dev.javelin.table.Commit;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.deletion.DeletionMerge;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Rebases a row-rewriting Update over concurrent Deletes and Updates that changed only the
 * deletion files of fragments whose rows it moved: each such fragment's deletion vector becomes
 * the newest one united with the moved rows. If the other commit deleted or moved one of the
 * same rows, the update conflicts (and is redone on the newest version).
 */
final class MergeMoved implements Commit.Rebase {
  private final Table table;
  private final Map<Long, RoaringBitmap> moved;
  private final BufferAllocator allocator;

  MergeMoved(Table table, Map<Long, RoaringBitmap> moved, BufferAllocator allocator) {
    this.table = table;
    this.moved = moved;
    this.allocator = allocator;
  }

  @Override
  public Commit.Rebased rebase(Transaction mine, List<Transaction> committed, Manifest latest) {
    Set<Long> touched = new HashSet<>();
    for (Transaction t : committed) {
      TransactionProtos.Transaction p = t.proto();
      if (t.kind() == OperationKind.DELETE) {
        p.getDelete().getUpdatedFragmentsList().forEach(f -> touched.add(f.getId()));
      } else if (t.kind() == OperationKind.UPDATE) {
        p.getUpdate().getUpdatedFragmentsList().forEach(f -> touched.add(f.getId()));
      }
    }
    Map<Long, Fragment> now = new HashMap<>();
    latest.fragments().forEach(f -> now.put(f.id(), f));
    TransactionProtos.Transaction.Update op = mine.proto().getUpdate();
    List<TableProtos.DataFragment> updated = new ArrayList<>();
    List<Long> removed = new ArrayList<>(op.getRemovedFragmentIdsList());
    return DeletionMerge.rebase(table.store(), "Could not merge deletion files of a concurrent commit: "
        + table.location(), (written, superseded) -> {
      for (TableProtos.DataFragment f : op.getUpdatedFragmentsList()) {
        long id = f.getId();
        if (!touched.contains(id)) {
          updated.add(f);
          continue;
        }
        Fragment current = now.get(id);
        RoaringBitmap ours = moved.get(id);
        if (current == null) {
          throw TableErrors.rowsUpdatedConcurrently(table.location(), mine, latest.version(),
              id << 32 | Integer.toUnsignedLong(ours.first()));
        }
        RoaringBitmap theirs = Deletes.deletedRows(table.store(), current, allocator);
        OptionalLong shared = DeletionMerge.firstShared(theirs, ours);
        if (shared.isPresent()) {
          throw TableErrors.rowsUpdatedConcurrently(table.location(), mine, latest.version(),
              id << 32 | shared.getAsLong());
        }
        superseded.add(DeletionFile.fromProto(f.getDeletionFile()).key(id));
        DeletionMerge.merge(table.store(), current, theirs, ours, latest.version(), written, allocator)
            .ifPresentOrElse(m -> updated.add(m.proto()), () -> removed.add(id));
      }
      return Transaction.fromProto(mine.proto().toBuilder()
          .setReadVersion(latest.version())
          .setUpdate(op.toBuilder().clearUpdatedFragments().addAllUpdatedFragments(updated)
              .clearRemovedFragmentIds().addAllRemovedFragmentIds(removed))
          .build());
    });
  }
}
