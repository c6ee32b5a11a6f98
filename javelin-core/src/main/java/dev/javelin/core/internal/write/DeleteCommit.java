package dev.javelin.core.internal.write;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Commit;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.DeletionMerge;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.RowNotFoundException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.stablepartition.StablePartitionFold;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The Delete operation: deletes rows by physical position and commits a Delete, one new deletion
 * file per touched fragment (its old deletions merged in), fragments left without live rows
 * dropped. Concurrent deletes of the same fragments are merged by a rebase instead of failing,
 * and rows a concurrent reordered rewrite moved are deleted at their new addresses.
 */
public final class DeleteCommit {

  private DeleteCommit() {}

  /**
   * What a delete committed: the manifest, and how many rows it deleted there. The count is of
   * rows live in the version the delete was built on and deleted by this commit: rows a concurrent
   * delete removed first are not counted, nor are rows other concurrent commits added.
   *
   * @param manifest the committed manifest, or the read one if nothing was committed
   * @param rowsDeleted the rows this commit deleted (0 if nothing was committed)
   */
  public record Committed(Manifest manifest, long rowsDeleted) {}

  /**
   * Deletes rows of version {@code read} and commits on the newest version.
   *
   * @param rows per fragment id, the physical offsets to delete (already deleted ones are ignored)
   * @param predicate recorded in the transaction (null or empty if none)
   * @return the committed manifest, or {@code read} itself if no live row was named (nothing is committed)
   * @throws RowNotFoundException naming an address whose fragment does not exist or that is past its end
   * @throws CommitConflictException if a concurrent commit rewrote or replaced the rows (rows a
   *     concurrent reordered rewrite moved are followed through its row map instead)
   */
  public static Manifest commit(Table table, Manifest read, Map<Long, RoaringBitmap> rows, String predicate,
      BufferAllocator allocator) {
    return commitCounted(table, read, rows, predicate, allocator).manifest();
  }

  /**
   * Deletes rows as {@link #commit} does and counts the rows the commit deleted: per fragment,
   * the rows of its committed deletion vector that the vector it was built on lacked (after a
   * rebase over concurrent deletes, the newest one).
   */
  public static Committed commitCounted(Table table, Manifest read, Map<Long, RoaringBitmap> rows, String predicate,
      BufferAllocator allocator) {
    ObjectStore store = table.store();
    Map<Long, Fragment> byId = new HashMap<>();
    read.fragments().forEach(f -> byId.put(f.id(), f));
    Map<Long, RoaringBitmap> affected = new TreeMap<>();
    List<Fragment> updated = new ArrayList<>();
    List<Long> removed = new ArrayList<>();
    try (PendingFiles written = new PendingFiles(store)) {
      for (Map.Entry<Long, RoaringBitmap> e : new TreeMap<>(rows).entrySet()) {
        long id = e.getKey();
        RoaringBitmap want = e.getValue();
        if (want.isEmpty()) {
          continue;
        }
        Fragment f = byId.get(id);
        if (f == null) {
          throw TableErrors.rowNotFound(table.location(), read.version(), id << 32 | want.first(),
              "names no fragment");
        }
        long last = Integer.toUnsignedLong(want.last());
        if (last >= f.physicalRows()) {
          throw TableErrors.rowNotFound(table.location(), read.version(), id << 32 | last,
              "is past the " + f.physicalRows() + " rows of its fragment");
        }
        RoaringBitmap old = Deletes.deletedRows(store, f, allocator);
        RoaringBitmap fresh = RoaringBitmap.andNot(want, old);
        if (fresh.isEmpty()) {
          continue;
        }
        affected.put(id, fresh);
        DeletionMerge.merge(store, f, old, fresh, read.version(), written, allocator)
            .ifPresentOrElse(updated::add, () -> removed.add(id));
      }
      if (affected.isEmpty()) {
        return new Committed(read, 0);
      }
      Transaction txn = Transaction.delete(read.version(), updated, removed, predicate);
      written.commit(); // the commit owns them now: it deletes them if it definitely fails
      MergeDeletions merge = new MergeDeletions(table, affected, allocator);
      Manifest committed = table.newCommit(txn).cleanupOnFailure(written.keys()).rebase(merge).commit();
      return new Committed(committed, merge.rowsDeleted());
    } catch (IOException e) {
      throw new UncheckedIOException("Delete failed: " + table.location(), e);
    }
  }

  /**
   * Rebases a Delete over concurrent Deletes and Updates of the same fragments: each such
   * fragment's deletion vector is now theirs (read from the newest manifest) united with the rows
   * this delete removes, written to a new file. A fragment a concurrent delete dropped needs
   * nothing more. A row a concurrent Update rewrote cannot be deleted here: that is a conflict.
   * Rows a concurrent reordered rewrite (a clustering) moved are followed through its row map and
   * deleted where they went; an order-preserving Rewrite of the same fragments is a conflict.
   */
  static final class MergeDeletions implements Commit.Rebase {
    private final Table table;
    private final Map<Long, RoaringBitmap> affected;
    private final BufferAllocator allocator;
    /**
     * Per fragment id, the rows of {@code affected} its deletion vector lacked when last read:
     * what the transaction as last rebased deletes there.
     */
    private final Map<Long, Long> deleting = new HashMap<>();

    MergeDeletions(Table table, Map<Long, RoaringBitmap> affected, BufferAllocator allocator) {
      this.table = table;
      this.affected = affected;
      this.allocator = allocator;
      // Built on the read version's vectors, which affected's rows are not in.
      affected.forEach((id, rows) -> deleting.put(id, rows.getLongCardinality()));
    }

    /** The rows the transaction as last attempted deletes. */
    long rowsDeleted() {
      long n = 0;
      for (long c : deleting.values()) {
        n += c;
      }
      return n;
    }

    @Override
    public Commit.Rebased rebase(Transaction mine, List<Transaction> committed, Manifest latest) {
      Set<Long> touched = new HashSet<>();
      Set<Long> byUpdate = new HashSet<>();
      for (Transaction t : committed) {
        TransactionProtos.Transaction p = t.proto();
        if (t.kind() == OperationKind.DELETE) {
          p.getDelete().getUpdatedFragmentsList().forEach(f -> touched.add(f.getId()));
          touched.addAll(p.getDelete().getDeletedFragmentIdsList());
        } else if (t.kind() == OperationKind.UPDATE) {
          p.getUpdate().getUpdatedFragmentsList().forEach(f -> byUpdate.add(f.getId()));
          touched.addAll(byUpdate);
        } else if (t.kind() == OperationKind.DATA_REPLACEMENT && !t.dataChange()) {
          // A column repack: same rows, new files; rebuild on the fragment as it is now.
          p.getDataReplacement().getReplacementsList().forEach(r -> touched.add(r.getFragmentId()));
        }
      }
      Map<Long, Fragment> now = new HashMap<>();
      latest.fragments().forEach(f -> now.put(f.id(), f));
      // Fragments holding rows this delete followed through a reordered rewrite.
      Set<Long> followed = follow(mine, committed, latest, touched);
      TransactionProtos.Transaction.Delete op = mine.proto().getDelete();
      List<TableProtos.DataFragment> updated = new ArrayList<>();
      List<Long> removed = new ArrayList<>();
      return DeletionMerge.rebase(table.store(), "Could not merge deletion files of a concurrent delete: "
          + table.location(), (written, superseded) -> {
        for (TableProtos.DataFragment f : op.getUpdatedFragmentsList()) {
          long id = f.getId();
          if (!touched.contains(id)) {
            updated.add(f);
            continue;
          }
          superseded.add(DeletionFile.fromProto(f.getDeletionFile()).key(id));
          Fragment current = now.get(id);
          if (current == null) {
            deleting.remove(id);
            continue; // a concurrent delete removed every row
          }
          mergeInto(current, mine, latest, byUpdate, written, updated, removed);
        }
        Set<Long> listed = new HashSet<>();
        op.getUpdatedFragmentsList().forEach(f -> listed.add(f.getId()));
        for (long id : followed) {
          Fragment current = now.get(id);
          if (listed.contains(id) || current == null) {
            if (current == null) {
              deleting.remove(id);
            }
            continue; // merged above, or a concurrent delete removed every row
          }
          mergeInto(current, mine, latest, byUpdate, written, updated, removed);
        }
        for (long id : op.getDeletedFragmentIdsList()) {
          Fragment current = now.get(id);
          if (current == null) {
            deleting.remove(id); // removed concurrently, or rewritten: its rows were followed
            continue;
          }
          removed.add(id);
          if (touched.contains(id)) {
            // Dropped whole: what it deletes is what a concurrent delete left live.
            deleting.put(id, (long) RoaringBitmap.andNotCardinality(affected.get(id),
                Deletes.deletedRows(table.store(), current, allocator)));
          }
        }
        return Transaction.fromProto(mine.proto().toBuilder()
            .setReadVersion(latest.version())
            .setDelete(op.toBuilder().clearUpdatedFragments().addAllUpdatedFragments(updated)
                .clearDeletedFragmentIds().addAllDeletedFragmentIds(removed))
            .build());
      });
    }

    // Unites this delete's rows of the fragment with its newest deletion vector (a row a concurrent
    // Update rewrote cannot be deleted: a conflict) and records what the transaction deletes there.
    private void mergeInto(Fragment current, Transaction mine, Manifest latest, Set<Long> byUpdate,
        PendingFiles written, List<TableProtos.DataFragment> updated, List<Long> removed) throws IOException {
      long id = current.id();
      RoaringBitmap theirs = Deletes.deletedRows(table.store(), current, allocator);
      RoaringBitmap ours = affected.get(id);
      deleting.put(id, (long) RoaringBitmap.andNotCardinality(ours, theirs));
      if (byUpdate.contains(id)) {
        OptionalLong shared = DeletionMerge.firstShared(theirs, ours);
        if (shared.isPresent()) {
          throw TableErrors.rowsConflict(table.location(), mine, latest.version(), id << 32 | shared.getAsLong());
        }
      }
      DeletionMerge.merge(table.store(), current, theirs, ours, latest.version(), written, allocator)
          .ifPresentOrElse(f -> updated.add(f.proto()), () -> removed.add(id));
    }

    // Rows of fragments a committed reordered Rewrite retired now live in its destinations: the
    // rows this delete removes there are moved to their new addresses in affected. Only the
    // commits judged rebasable reach a rebase, so once one is a Rewrite of our fragments every
    // commit since our read is walked in order: a later rewrite of a destination is followed
    // too (or conflicts if it preserved order: no row map), and a row an Update rewrote, before
    // or after a move, is a conflict as it is without one.
    private Set<Long> follow(Transaction mine, List<Transaction> committed, Manifest latest, Set<Long> touched) {
      Set<Long> followed = new HashSet<>();
      boolean anyRewrite = committed.stream().anyMatch(t -> t.kind() == OperationKind.REWRITE);
      if (!anyRewrite) {
        return followed;
      }
      try {
        for (Map.Entry<Long, String> e : table.listVersions().tailMap(mine.readVersion(), false).entrySet()) {
          if (e.getKey() > latest.version()) {
            break;
          }
          Manifest m = e.getKey() == latest.version() ? latest : table.read(e.getValue());
          Transaction t = table.transaction(m).orElseThrow(() ->
              TableErrors.missingTransaction(table.location(), e.getKey()));
          if (t.kind() == OperationKind.UPDATE) {
            checkNotUpdated(mine, t, latest);
            continue;
          }
          if (t.kind() != OperationKind.REWRITE) {
            continue;
          }
          Set<Long> old = new HashSet<>();
          var op = t.proto().getRewrite();
          op.getOldFragmentsList().forEach(f -> old.add(f.getId()));
          op.getGroupsList().forEach(g -> g.getOldFragmentsList().forEach(f -> old.add(f.getId())));
          Map<Long, RoaringBitmap> hit = new TreeMap<>();
          affected.forEach((id, rows) -> {
            if (old.contains(id)) {
              hit.put(id, rows);
            }
          });
          if (hit.isEmpty()) {
            continue;
          }
          Optional<Map<Long, RoaringBitmap>> moved = StablePartitionFold.follow(table.store(), latest, t, hit,
              allocator);
          if (moved.isEmpty()) {
            throw TableErrors.conflict(table.location(), mine, t, e.getKey());
          }
          hit.keySet().forEach(id -> {
            affected.remove(id);
            deleting.remove(id); // counted where the rows went, below
          });
          moved.get().forEach((id, rows) -> affected.merge(id, rows, (x, y) -> RoaringBitmap.or(x, y)));
          followed.removeAll(hit.keySet());
          followed.addAll(moved.get().keySet());
          touched.addAll(hit.keySet()); // their deletion files in this delete are superseded
          touched.addAll(moved.get().keySet());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Could not follow deleted rows through the row map of a concurrent "
            + "reordered rewrite: " + table.location(), e);
      }
      return followed;
    }

    // A committed row-rewriting Update deleted its rows where they were (its fragment's deletion
    // file in its transaction): one of them is a row this delete removes, or it removed the fragment.
    private void checkNotUpdated(Transaction mine, Transaction u, Manifest latest) throws IOException {
      var op = u.proto().getUpdate();
      for (long id : op.getRemovedFragmentIdsList()) {
        RoaringBitmap ours = affected.get(id);
        if (ours != null && !ours.isEmpty()) {
          throw TableErrors.rowsConflict(table.location(), mine, latest.version(),
              id << 32 | Integer.toUnsignedLong(ours.first()));
        }
      }
      for (TableProtos.DataFragment f : op.getUpdatedFragmentsList()) {
        RoaringBitmap ours = affected.get(f.getId());
        if (ours == null) {
          continue;
        }
        RoaringBitmap theirs = Deletes.deletedRows(table.store(), Fragment.fromProto(f), allocator);
        OptionalLong shared = DeletionMerge.firstShared(theirs, ours);
        if (shared.isPresent()) {
          throw TableErrors.rowsConflict(table.location(), mine, latest.version(),
              f.getId() << 32 | shared.getAsLong());
        }
      }
    }
  }
}
