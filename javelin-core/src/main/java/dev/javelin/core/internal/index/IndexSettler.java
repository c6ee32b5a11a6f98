package dev.javelin.core.internal.index;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import dev.javelin.common.ProgressStage;
import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexSettleResult;
import dev.javelin.core.compaction.IndexRemapper;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.IndexUuids;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.proto.TransactionProtos.Transaction.Rewrite.RewrittenIndex;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Settles indices after reordered rewrites: every BTree, bitmap, label list, n-gram and IVF_PQ
 * index Javelin reads that answers for some fragments through row maps is remapped (a copy under
 * a new uuid, its row addresses passed through the row maps, as compaction remaps; a zone map or
 * bloom filter is built again over the fragments it then covers) so its bitmap names the destinations directly; then
 * the stable partition transitions no index answers through any more are dropped, and the
 * {@code __lance_stable_partition} entry with them when none is left. One CreateIndex commits it
 * all (remapped indices in, old ones and the entry out, or the entry replaced by one holding the
 * kept transitions). Once the entry is gone, the dataset has nothing lance-core 7.0.0 does not
 * know, and no query needs a row map; cleanup then removes the row maps with the last kept
 * version naming the entry.
 *
 * <p>Concurrency: a concurrent append, delete or index change commits over it as usual (deletions
 * apply to the remapped indices like any other). Any concurrent Rewrite (a compaction or another
 * reordered rewrite) conflicts, because a remapped index or the entry may describe fragments it
 * moved; settling then starts again on the newest version, up to {@value #ATTEMPTS} times, and
 * otherwise throws the last {@link CommitConflictException}.
 */
public final class IndexSettler {
  static final int ATTEMPTS = 3;

  private IndexSettler() {}

  public static IndexSettleResult settle(Dataset ds) {
    return settle(ds, ProgressListener.NONE);
  }

  /** As {@link #settle(Dataset)}, reporting each index remapped to {@code progress}. */
  public static IndexSettleResult settle(Dataset ds, ProgressListener progress) {
    Dataset[] at = {ds.checkoutLatest()};
    return Tasks.retry().maxAttempts(ATTEMPTS).retryOn(CommitConflictException.class).run(attempt -> {
      if (attempt > 1) {
        at[0] = at[0].checkoutLatest();
      }
      return settleOnce(at[0], ds.allocator(), progress);
    });
  }

  private static IndexSettleResult settleOnce(Dataset ds, BufferAllocator allocator, ProgressListener progress) {
    Manifest m = ds.manifest();
    Optional<IndexMetadata> entry = StablePartitionEntry.find(m);
    if (entry.isEmpty()) {
      return new IndexSettleResult(ds, List.of(), 0, 0);
    }
    List<StablePartitionTransition> transitions = IndexCoverage.transitions(ds);
    List<IndexMetadata> toRemap = new ArrayList<>();
    List<IndexCoverage> coverages = new ArrayList<>();
    Set<StablePartitionTransition> needed = new LinkedHashSet<>();
    for (IndexMetadata i : m.indices()) {
      if (i.isSystem()) {
        continue; // system entries: their bitmaps are provenance, nothing answers through them
      }
      IndexCoverage c = IndexCoverage.derive(i.fragmentBitmap(), transitions);
      if (c.through().isEmpty()) {
        continue;
      }
      if (IndexRemapper.action(i) == IndexRemapper.Action.REMAP) {
        toRemap.add(i); // unless its files turn out to be a vector index Javelin cannot read
        coverages.add(c);
      } else {
        needed.addAll(c.through()); // cannot remap it: it keeps answering through the row maps
      }
    }
    if (toRemap.isEmpty() && needed.size() == transitions.size()) {
      return new IndexSettleResult(ds, List.of(), 0, transitions.size());
    }
    // A zone map or bloom filter is built again over the fragments its settled bitmap names.
    Map<String, RoaringBitmap> settledBitmaps = new HashMap<>();
    IndexRemapper remapper = new IndexRemapper((index, directory) -> {
      RoaringBitmap bitmap = settledBitmaps.get(index.uuid());
      List<dev.javelin.table.Fragment> fragments = new ArrayList<>();
      for (dev.javelin.table.Fragment f : m.fragments()) {
        if (f.id() <= 0xFFFFFFFFL && bitmap.contains((int) f.id())) {
          fragments.add(f);
        }
      }
      return ZonedRebuild.write(ds, index, fragments, ds.store(), directory, allocator);
    });
    try (PendingFiles written = new PendingFiles(ds.store());
        ProgressStage stage = ProgressStage.start(progress, "settle indices", "remap indices", toRemap.size(),
            Progress.Unit.INDICES)) {
      try {
        List<IndexMetadata> added = new ArrayList<>();
        List<IndexMetadata> removed = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Map<List<StablePartitionTransition>, TransitionAddressMap> maps = new HashMap<>();
        for (int k = 0; k < toRemap.size(); k++) {
          IndexMetadata old = toRemap.get(k);
          IndexCoverage c = coverages.get(k);
          // Indices built together answer through the same transitions: one map serves them all.
          TransitionAddressMap map = maps.get(c.through());
          if (map == null) {
            map = new TransitionAddressMap(ds.store(), c.through(), allocator);
            maps.put(c.through(), map);
          }
          // The transitions' sources are retired and every row they held now has an address in a
          // destination (or none): the new bitmap names the destinations instead.
          RoaringBitmap bitmap = c.fragments();
          for (StablePartitionTransition t : c.through()) {
            t.sources().forEach(s -> bitmap.remove((int) s.id()));
          }
          settledBitmaps.put(old.uuid(), bitmap);
          Optional<RewrittenIndex> remapped = remapper.tryRemap(ds.store(), ds.manifest().basePaths(), old, map,
              allocator, ds.location());
          stage.advance(1);
          if (remapped.isEmpty()) {
            needed.addAll(c.through()); // a vector index of a kind Javelin cannot read
            continue;
          }
          RewrittenIndex r = remapped.get();
          removed.add(old);
          added.add(old.renewed(IndexUuids.toText(r.getNewId().getUuid()))
              .fragmentBitmap(bitmap)
              .build());
          names.add(old.name());
        }
        List<StablePartitionTransition> keep = new ArrayList<>();
        for (StablePartitionTransition t : transitions) {
          if (needed.contains(t)) {
            keep.add(t);
          }
        }
        if (names.isEmpty() && keep.size() == transitions.size()) {
          return new IndexSettleResult(ds, List.of(), 0, keep.size()); // nothing written
        }
        if (keep.isEmpty()) {
          removed.add(entry.get());
        } else if (keep.size() < transitions.size()) {
          IndexMetadata kept = StablePartitionEntry.retain(entry.get(), keep, m.version() + 1, ds.store());
          StablePartitionEntry.writtenFile(kept).ifPresent(written::add);
          added.add(kept);
        }
        Transaction txn = Transaction.createIndex(m.version(), added, removed);
        Table table = ds.table();
        written.addAll(remapper.written());
        written.commit(); // the commit deletes them if it fails
        Manifest next = table.newCommit(txn).cleanupOnFailure(written.keys()).commit();
        return new IndexSettleResult(ds.checkout(next.version()), names, transitions.size() - keep.size(),
            keep.size());
      } finally {
        written.addAll(remapper.written()); // unless committed, deleted with the rest
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Settling indices failed: " + ds.location(), e);
    }
  }
}
