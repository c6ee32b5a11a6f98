package dev.javelin.core.internal.write;

import dev.javelin.table.Commit;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.DeletionMerge;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Rebases a merge insert over concurrent Deletes of fragments it read ({@code ConflictRules}
 * judges the rest). A delete of a row the merge matched makes the match stale (the merge would
 * have inserted that key, or not deleted it): a conflict, and the merge runs again on the newest
 * version. Otherwise the deletion vectors are merged as for any row-rewriting update
 * ({@link MergeMoved}).
 */
final class MergeInsertRebase implements Commit.Rebase {
  private final Table table;
  private final Map<Long, RoaringBitmap> changed;
  private final Map<Long, RoaringBitmap> matched;
  private final MergeMoved merge;
  private final BufferAllocator allocator;

  MergeInsertRebase(Table table, Map<Long, RoaringBitmap> changed, Map<Long, RoaringBitmap> matched,
      MergeMoved merge, BufferAllocator allocator) {
    this.table = table;
    this.changed = changed;
    this.matched = matched;
    this.merge = merge;
    this.allocator = allocator;
  }

  @Override
  public Commit.Rebased rebase(Transaction mine, List<Transaction> committed, Manifest latest) {
    try {
      for (Transaction t : committed) {
        if (t.kind() != OperationKind.DELETE) {
          continue;
        }
        var d = t.proto().getDelete();
        for (long id : d.getDeletedFragmentIdsList()) {
          RoaringBitmap ours = rowsOf(id);
          if (!ours.isEmpty()) {
            throw TableErrors.rowsUpdatedConcurrently(table.location(), mine, latest.version(),
                id << 32 | Integer.toUnsignedLong(ours.first()));
          }
        }
        for (TableProtos.DataFragment f : d.getUpdatedFragmentsList()) {
          RoaringBitmap ours = rowsOf(f.getId());
          if (ours.isEmpty()) {
            continue;
          }
          RoaringBitmap theirs = Deletes.deletedRows(table.store(), Fragment.fromProto(f), allocator);
          OptionalLong shared = DeletionMerge.firstShared(theirs, ours);
          if (shared.isPresent()) {
            throw TableErrors.rowsUpdatedConcurrently(table.location(), mine, latest.version(),
                f.getId() << 32 | shared.getAsLong());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the deletion files of a concurrent delete: "
          + table.location(), e);
    }
    return merge.rebase(mine, committed, latest);
  }

  // The rows of a fragment the merge matched or changed.
  private RoaringBitmap rowsOf(long id) {
    RoaringBitmap a = matched.get(id);
    RoaringBitmap b = changed.get(id);
    if (a == null) {
      return b == null ? new RoaringBitmap() : b;
    }
    return b == null ? a : RoaringBitmap.or(a, b);
  }
}
