package dev.javelin.table.stablepartition;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Commit;
import dev.javelin.table.ConflictRules;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.ManifestBuilder;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.deletion.DeletionFiles;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowmap.RowMapReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Rebases a reordered Rewrite over concurrent Deletes (and row-rewriting Updates, whose moved rows
 * are deleted where they were) of its source fragments, committed after it read them: each row
 * deleted since then is deleted from the destination the row map sent it to, at its rank there.
 *
 * <p>The destinations are fragments of this rewrite, without deletions when written, so their
 * deletion vectors are computed afresh on every rebase from the sources as they now stand: a
 * source's deleted rows whose row map label is not null (live when the rewrite read it); a
 * source a concurrent commit removed counts as wholly deleted, and the rewrite stops replacing it
 * (the transition keeps naming it). The transition itself is unchanged: it records what the
 * rewrite read, which the row map and the destinations' physical rows still conserve.
 * {@link ConflictRules} decides which commits are folded (only changes of sources; an Update's
 * changes only when they leave the values as read).
 */
public final class StablePartitionFold implements Commit.Rebase {

  private final Table table;
  private final BufferAllocator allocator;
  // Sources changed by any commit folded so far (a later rebase recomputes them all).
  private final Set<Long> touched = new TreeSet<>();

  /** A fold for one commit of a reordered Rewrite (install it with {@link Commit#rebase}). */
  public StablePartitionFold(Table table, BufferAllocator allocator) {
    this.table = table;
    this.allocator = allocator;
  }

  @Override
  public Commit.Rebased rebase(Transaction mine, List<Transaction> committed, Manifest latest) {
    StablePartition sp = mine.stablePartition();
    if (sp == null) {
      throw new IllegalArgumentException("Only a reordered Rewrite folds concurrent deletions, not " + mine + ": "
          + table.location());
    }
    StablePartitionTransition t = sp.transition();
    Set<Long> sources = sp.sourceIds();
    for (Transaction c : committed) {
      Set<Long> changed = changedFragments(c);
      changed.retainAll(sources);
      touched.addAll(changed);
    }
    ObjectStore store = table.store();
    Map<Long, Fragment> now = new HashMap<>();
    latest.fragments().forEach(f -> now.put(f.id(), f));
    int m = t.destinations().size();
    RoaringBitmap[] deleted = new RoaringBitmap[m];
    for (int d = 0; d < m; d++) {
      deleted[d] = new RoaringBitmap();
    }
    Set<Long> gone = new HashSet<>();
    try (PendingFiles written = new PendingFiles(store);
        RowMapReader map = RowMapReader.open(store, t.rowMapPath(), allocator)) {
      for (StablePartitionTransition.Source s : t.sources()) {
        if (!touched.contains(s.id())) {
          continue;
        }
        Fragment f = now.get(s.id());
        RoaringBitmap rows;
        if (f == null) {
          gone.add(s.id());
          rows = new RoaringBitmap();
          rows.add(0L, s.physicalRows());
        } else {
          if (f.physicalRows() != s.physicalRows()) {
            throw new CommitConflictException("Source fragment " + s.id() + " of the reordered rewrite has "
                + f.physicalRows() + " physical rows in version " + latest.version() + ", not the "
                + s.physicalRows() + " it read: " + table.location(), latest.version());
          }
          rows = Deletes.deletedRows(store, f, allocator);
        }
        fold(map, t.firstPosition(s.id()), s, rows, deleted);
      }
      TransactionProtos.Transaction.Rewrite op = mine.proto().getRewrite();
      TransactionProtos.Transaction.Rewrite.Builder rebuilt = op.toBuilder().clearGroups();
      List<String> superseded = new ArrayList<>();
      Map<Long, Integer> labelOf = new HashMap<>();
      for (int d = 0; d < m; d++) {
        labelOf.put(t.destinations().get(d), d);
      }
      List<Fragment> destinations = new ArrayList<>();
      for (TransactionProtos.Transaction.Rewrite.RewriteGroup g : op.getGroupsList()) {
        // A reordered group writes destinations (an earlier fold may have emptied its sources).
        if (g.getNewFragmentsList().stream().noneMatch(f -> labelOf.containsKey(f.getId()))) {
          rebuilt.addGroups(g); // order-preserving: ManifestBuilder checks groups do not mix
          continue;
        }
        TransactionProtos.Transaction.Rewrite.RewriteGroup.Builder ng = g.toBuilder().clearOldFragments()
            .clearNewFragments();
        g.getOldFragmentsList().stream().filter(f -> !gone.contains(f.getId())).forEach(ng::addOldFragments);
        if (ng.getOldFragmentsCount() == 0) {
          throw new CommitConflictException("Every source fragment " + g.getOldFragmentsList().stream()
              .map(TableProtos.DataFragment::getId).toList() + " of the reordered rewrite was removed by a concurrent "
              + "commit (by version " + latest.version() + "): nothing is left to rewrite: " + table.location(),
              latest.version());
        }
        for (TableProtos.DataFragment f : g.getNewFragmentsList()) {
          Integer d = labelOf.get(f.getId());
          TableProtos.DataFragment.Builder b = f.toBuilder();
          if (f.hasDeletionFile()) {
            superseded.add(DeletionFile.fromProto(f.getDeletionFile()).key(f.getId())); // an earlier fold's
            b.clearDeletionFile();
          }
          if (d != null && !deleted[d].isEmpty()) {
            if (deleted[d].last() >= f.getPhysicalRows() || deleted[d].last() < 0) {
              throw new IllegalStateException("The row map " + t.rowMapPath() + " ranks a row at "
                  + Integer.toUnsignedLong(deleted[d].last()) + " in destination " + f.getId() + " of "
                  + f.getPhysicalRows() + " rows: " + table.location());
            }
            DeletionFile file = DeletionFiles.write(store, f.getId(), latest.version(), deleted[d], allocator);
            written.add(file.key(f.getId()));
            b.setDeletionFile(file.proto());
          }
          ng.addNewFragments(b);
          destinations.add(Fragment.fromProto(b.build()));
        }
        rebuilt.addGroups(ng);
      }
      // Deletion files change no physical row count: the read-time conservation still holds.
      StablePartitionValidator.validate(t, map.summary(), destinations);
      Transaction rebased = Transaction.reordered(mine.proto().toBuilder().setReadVersion(latest.version())
          .setRewrite(rebuilt).build(), sp.withGoneSources(gone));
      written.commit();
      return new Commit.Rebased(rebased, written.keys(), superseded);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not fold concurrent deletions into the reordered rewrite's destinations: "
          + table.location(), e);
    }
  }

  // The fragments whose rows a committed Delete or Update deleted or removed.
  private static Set<Long> changedFragments(Transaction c) {
    Set<Long> out = new HashSet<>();
    TransactionProtos.Transaction p = c.proto();
    if (c.kind() == OperationKind.DELETE) {
      p.getDelete().getUpdatedFragmentsList().forEach(f -> out.add(f.getId()));
      out.addAll(p.getDelete().getDeletedFragmentIdsList());
    } else if (c.kind() == OperationKind.UPDATE) {
      p.getUpdate().getUpdatedFragmentsList().forEach(f -> out.add(f.getId()));
      out.addAll(p.getUpdate().getRemovedFragmentIdsList());
    }
    return out;
  }

  /**
   * Where a committed Rewrite moved rows of its old fragments, when it was a reordered one: the
   * transitions of {@code latest} that retired those fragments into the Rewrite's new ones give,
   * per destination id, the offsets of the rows there. Rows the rewrite saw deleted are dropped
   * (they are deleted where they went too). Empty when a fragment was not retired by a transition
   * of this Rewrite (an order-preserving rewrite: there is no row map to follow).
   *
   * @param rows per old fragment id of {@code rewrite}, physical offsets in it
   */
  public static Optional<Map<Long, RoaringBitmap>> follow(ObjectStore store, Manifest latest, Transaction rewrite,
      Map<Long, RoaringBitmap> rows, BufferAllocator allocator) throws IOException {
    Set<Long> written = new HashSet<>();
    TransactionProtos.Transaction.Rewrite op = rewrite.proto().getRewrite();
    op.getNewFragmentsList().forEach(f -> written.add(f.getId()));
    op.getGroupsList().forEach(g -> g.getNewFragmentsList().forEach(f -> written.add(f.getId())));
    Map<StablePartitionTransition, List<Long>> through = new LinkedHashMap<>();
    List<StablePartitionTransition> all = StablePartitionEntry.transitions(latest, store);
    for (long id : rows.keySet()) {
      StablePartitionTransition t = all.stream()
          .filter(x -> x.sources().stream().anyMatch(s -> s.id() == id)).findFirst().orElse(null);
      if (t == null || !written.containsAll(t.destinations())) {
        return Optional.empty();
      }
      through.computeIfAbsent(t, k -> new ArrayList<>()).add(id);
    }
    Map<Long, RoaringBitmap> out = new TreeMap<>();
    for (Map.Entry<StablePartitionTransition, List<Long>> e : through.entrySet()) {
      StablePartitionTransition t = e.getKey();
      RoaringBitmap[] moved = new RoaringBitmap[t.destinations().size()];
      for (int d = 0; d < moved.length; d++) {
        moved[d] = new RoaringBitmap();
      }
      try (RowMapReader map = RowMapReader.open(store, t.rowMapPath(), allocator)) {
        for (StablePartitionTransition.Source s : t.sources()) {
          if (e.getValue().contains(s.id())) {
            fold(map, t.firstPosition(s.id()), s, rows.get(s.id()), moved);
          }
        }
      }
      for (int d = 0; d < moved.length; d++) {
        if (!moved[d].isEmpty()) {
          out.merge(t.destinations().get(d), moved[d], (x, y) -> RoaringBitmap.or(x, y));
        }
      }
    }
    return Optional.of(out);
  }

  /**
   * Adds to {@code out[label]} the rank of every row of {@code rows} (offsets in source
   * {@code s}, whose first row map position is {@code first}) that was live when the rewrite read
   * it. Reads labels and ranks one row map chunk at a time, only where deleted rows are.
   */
  static void fold(RowMapReader map, long first, StablePartitionTransition.Source s, RoaringBitmap rows,
      RoaringBitmap[] out) throws IOException {
    if (!rows.isEmpty() && Integer.toUnsignedLong(rows.last()) >= s.physicalRows()) {
      throw new IllegalStateException("Fragment " + s.id() + " deletes row " + Integer.toUnsignedLong(rows.last())
          + " of its " + s.physicalRows() + " rows: " + map.location());
    }
    int[] labels = new int[RowMapReader.CHUNK];
    long[] ranks = new long[RowMapReader.CHUNK];
    long end = first + s.physicalRows();
    PeekableIntIterator it = rows.getIntIterator();
    while (it.hasNext()) {
      long pos = first + Integer.toUnsignedLong(it.peekNext());
      long chunk = pos / RowMapReader.CHUNK;
      long from = Math.max(first, chunk * RowMapReader.CHUNK);
      long to = Math.min(end, (chunk + 1) * RowMapReader.CHUNK);
      map.ranks(from, (int) (to - from), labels, ranks);
      while (it.hasNext() && first + Integer.toUnsignedLong(it.peekNext()) < to) {
        int i = (int) (first + Integer.toUnsignedLong(it.next()) - from);
        if (labels[i] >= 0) {
          out[labels[i]].add((int) ranks[i]); // rows deleted at read time carry no label
        }
      }
    }
  }
}
