package dev.javelin.core.cluster;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.ConcurrentRewriteException;
import dev.javelin.table.rowmap.RowMapSummary;
import dev.javelin.table.stablepartition.StablePartition;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionFold;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.table.stablepartition.StablePartitionValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A clustering's commit: reserves the destinations' fragment ids, checks that the transition
 * conserves every row, and lands a reordered Rewrite (one group: all sources to all
 * destinations) carrying the stable partition transition, appended onto the newest entry. Rows
 * of the sources deleted by a commit that lands meanwhile are folded into the destinations
 * ({@link StablePartitionFold}); a concurrent clustering of other fragments makes it rebuild the
 * entry on it and retry. Deletes the data files and the row map unless the rewrite commits.
 */
final class ClusterCommit {
  // A concurrent reordered rewrite replaces the entry we appended onto; we rebuild and retry.
  private static final int MAX_ENTRY_RETRIES = 5;

  private final Dataset dataset;
  private final Runnable beforeCommit;

  /** @param beforeCommit runs after each attempt's entry is built, before its commit (tests); may be null */
  ClusterCommit(Dataset dataset, Runnable beforeCommit) {
    this.dataset = dataset;
    this.beforeCommit = beforeCommit;
  }

  /**
   * Commits the rewrite of {@code sources} of version {@code read} into {@code written}.
   *
   * @param dataFiles the keys of the destinations' data files
   * @param rows the rows moved
   * @param entryUuid the stable partition entry the row map was written under
   */
  ClusterResult commit(Manifest read, List<Fragment> sources, List<Fragment> written, List<String> dataFiles,
      long rows, String entryUuid, String rowMapPath, RowMapSummary summary) {
    Table table = dataset.table();
    // The data files and the row map: deleted unless the rewrite commits.
    try (PendingFiles keys = new PendingFiles(dataset.store())) {
      keys.addAll(dataFiles);
      keys.add(rowMapPath);
      List<Fragment> news = new ArrayList<>();
      if (!written.isEmpty()) {
        Manifest reserved = table.newCommit(Transaction.reserveFragments(dataset.version(), written.size()))
            .commit();
        long next = reserved.maxFragmentId().getAsLong() - written.size() + 1;
        for (Fragment f : written) {
          news.add(f.withId(next++));
        }
      }
      List<StablePartitionTransition.Source> from = new ArrayList<>();
      sources.forEach(f -> from.add(StablePartitionTransition.Source.of(f)));
      StablePartitionTransition transition = new StablePartitionTransition(read.version(), from,
          Clustering.ids(news), rowMapPath);
      StablePartitionValidator.validate(transition, summary, news);
      // What an attempt changes for the next: the entry's uuid and the transition (its row map may move).
      String[] uuidOf = {entryUuid};
      StablePartitionTransition[] built = {transition};
      Manifest done = Tasks.retry().maxAttempts(MAX_ENTRY_RETRIES).retryOn(ConcurrentRewriteException.class)
          .run(attempt -> {
            StablePartition sp;
            try {
              // Appended onto the newest entry: a concurrent reordered rewrite that landed since the
              // read is kept, not overwritten (the commit rejects a stale base, and we rebuild).
              Manifest latest = table.latest();
              String uuid = StablePartition.entryUuidFor(latest);
              if (StablePartitionEntry.find(latest).isPresent() && !uuid.equals(uuidOf[0])) {
                // A concurrent first clustering created the entry under another uuid: move our row map there.
                String path = built[0].rowMapPath();
                String moved = StablePartitionEntry.directory(uuid) + path.substring(path.lastIndexOf('/'));
                dataset.store().put(moved, dataset.store().read(path));
                keys.add(moved);
                keys.discard(path);
                uuidOf[0] = uuid;
                built[0] = new StablePartitionTransition(built[0].datasetVersion(), built[0].sources(),
                    built[0].destinations(), moved);
              }
              sp = StablePartition.appendTo(latest, built[0], dataset.store(), uuidOf[0]);
            } catch (IOException e) {
              throw new UncheckedIOException("Writing the stable partition entry failed: " + dataset.location(), e);
            }
            Transaction txn = Transaction.reorderedRewrite(read.version(), List.of(sources), List.of(news), sp);
            if (beforeCommit != null) {
              beforeCommit.run();
            }
            // Deletes of source rows committed since the read are folded into the destinations.
            return table.newCommit(txn).cleanupOnFailure(sp.writtenFiles())
                .rebase(new StablePartitionFold(table, dataset.allocator())).commit();
          });
      keys.commit();
      Dataset at = dataset.at(done);
      return new ClusterResult(at, Clustering.ids(sources), Clustering.ids(news), rows);
    }
  }
}
