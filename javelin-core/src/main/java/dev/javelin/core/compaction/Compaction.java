package dev.javelin.core.compaction;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import dev.javelin.common.ProgressStage;
import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.core.internal.index.ZonedRebuild;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.DataFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.UnremappedIndices;
import dev.javelin.table.deletion.Deletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToLongFunction;
import org.roaringbitmap.RoaringBitmap;

/**
 * Compaction, Lance's {@code compact_files} with column repacks: plan (on one version), execute
 * each task (anywhere), commit the results. Fragment rewrites commit as ReserveFragments (the new
 * fragments' ids) then one Rewrite, as lance-core 7.0.0 does; repacks then commit as one
 * {@code DataReplacement{data_change: false}}. Indices covering rewritten fragments are remapped
 * at commit (once the new fragments' ids are reserved) and swapped in by the Rewrite's
 * {@code rewritten_indices}, or, for kinds Javelin cannot remap, stop covering the old fragments
 * or retire their ids ({@link IndexRemapper}); with stable row ids indices hold stable row ids,
 * which a rewrite keeps, so none is remapped and their coverage follows the rows; column
 * repacks move no row, so they keep every index as it is. A run with both kinds makes up to three versions;
 * if the repack commit fails, the rewrite stays committed and the repacks can be planned again.
 */
public final class Compaction {

  private Compaction() {}

  /** Plans, executes and commits with the default planner and executor. */
  public static CompactionSummary compact(Dataset dataset, CompactionOptions options) {
    return compact(dataset, options, new DefaultCompactionPlanner(), new DefaultCompactionExecutor());
  }

  /**
   * Plans with {@code planner} (table config applied to the options first), runs every task with
   * {@code executor}, and commits. A failing task deletes the files of the tasks already run.
   */
  public static CompactionSummary compact(Dataset dataset, CompactionOptions options, CompactionPlanner planner,
      CompactionExecutor executor) {
    return compact(dataset, options, planner, executor, ProgressListener.NONE);
  }

  /** As {@link #compact(Dataset, CompactionOptions)} with these, reporting to {@code progress}. */
  public static CompactionSummary compact(Dataset dataset, CompactionOptions options, CompactionPlanner planner,
      CompactionExecutor executor, ProgressListener progress) {
    CompactionPlan plan = plan(dataset, options, planner);
    List<CompactionTaskResult> results = run(dataset, plan.tasks(), executor, plan.options().numThreads(), progress);
    return commit(dataset, results, plan.options().deferIndexRemap());
  }

  // Runs the tasks, up to `threads` at once; results come back in task order. If one fails, no
  // other task starts, the running ones end, and every file the finished ones wrote is deleted.
  private static List<CompactionTaskResult> run(Dataset dataset, List<CompactionTask> tasks, CompactionExecutor executor,
      int threads, ProgressListener progress) {
    Tasks.Revert<CompactionTaskResult> deleteWritten = r -> PendingFiles.deleteAll(dataset.store(), r.writtenKeys());
    Map<Long, Long> rows = new HashMap<>();
    for (Fragment f : dataset.manifest().fragments()) {
      rows.put(f.id(), f.physicalRows());
    }
    ToLongFunction<CompactionTask> taskRows = t -> t.fragmentIds().stream()
        .mapToLong(id -> rows.getOrDefault(id, 0L)).sum();
    long total = tasks.stream().mapToLong(taskRows).sum();
    try (ProgressStage stage = ProgressStage.start(progress, "compact", "rewrite and repack", total,
        Progress.Unit.ROWS)) {
      Tasks.Work<CompactionTask, CompactionTaskResult, RuntimeException> execute = t -> {
        CompactionTaskResult r = executor.execute(dataset, t);
        stage.advance(taskRows.applyAsLong(t));
        return r;
      };
      if (threads <= 1 || tasks.size() <= 1) {
        return Tasks.foreach(tasks).run(execute, deleteWritten);
      }
      ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, tasks.size()));
      try {
        return Tasks.foreach(tasks).executeWith(pool)
            .onInterrupt(e -> new CompactionException("Interrupted while compacting " + dataset.location(), e))
            .run(execute, deleteWritten);
      } catch (Error e) {
        // A task's error comes from another thread: reported as the task's failure, as it always was.
        throw new CompactionException("A compaction task failed: " + dataset.location(), e);
      } finally {
        pool.shutdown();
      }
    }
  }

  /** Plans with the default planner. */
  public static CompactionPlan plan(Dataset dataset, CompactionOptions options) {
    return plan(dataset, options, new DefaultCompactionPlanner());
  }

  /** Plans with {@code planner}, on {@code dataset}'s version, with table config applied. */
  public static CompactionPlan plan(Dataset dataset, CompactionOptions options, CompactionPlanner planner) {
    return planner.plan(dataset, options.withTableConfig(dataset.manifest().config()));
  }

  /**
   * Commits executed tasks: fragment rewrites first (ReserveFragments, then one Rewrite), then
   * column repacks (one DataReplacement with a group per new file). Files of results that cannot
   * commit are deleted.
   *
   * @throws CompactionException if one fragment is in both a rewrite and a repack (before either commit)
   * @throws dev.javelin.table.exceptions.CommitConflictException if a concurrent commit changed what a task read
   */
  public static CompactionSummary commit(Dataset dataset, List<CompactionTaskResult> results) {
    return commit(dataset, results, false);
  }

  /**
   * Commits executed tasks as the plan's options say: with {@link CompactionOptions#deferIndexRemap()},
   * fragment rewrites record a {@code __lance_frag_reuse} system index instead of remapping the
   * indices covering them.
   */
  public static CompactionSummary commit(Dataset dataset, List<CompactionTaskResult> results,
      CompactionOptions options) {
    return commit(dataset, results, options.deferIndexRemap());
  }

  private static CompactionSummary commit(Dataset dataset, List<CompactionTaskResult> results,
      boolean deferIndexRemap) {
    List<CompactionTaskResult> rewrites = new ArrayList<>();
    List<CompactionTaskResult> repacks = new ArrayList<>();
    for (CompactionTaskResult r : results) {
      (r.kind() == TaskKind.REPACK_COLUMNS ? repacks : rewrites).add(r);
    }
    Manifest last = null;
    int removed = 0;
    int added = 0;
    int files = 0;
    int repacked = 0;
    // Each kind's files are deleted unless its commit took them over.
    try (PendingFiles rewriteFiles = filesOf(dataset, rewrites); PendingFiles repackFiles = filesOf(dataset, repacks)) {
      Set<Long> rewritten = new HashSet<>();
      rewrites.forEach(r -> rewritten.addAll(r.fragmentIds()));
      for (CompactionTaskResult r : repacks) {
        for (long id : r.fragmentIds()) {
          if (rewritten.contains(id)) {
            throw new CompactionException("Fragment " + id + " is in both a fragment rewrite and a column repack; "
                + "a run may put a fragment in one kind of task only: " + dataset.location());
          }
        }
      }
      Table table = dataset.table();
      if (!rewrites.isEmpty()) {
        last = commitRewrites(dataset, table, rewrites, deferIndexRemap, rewriteFiles);
        for (CompactionTaskResult r : rewrites) {
          removed += r.fragmentIds().size();
          added += r.newFragments().size();
          files += r.newFragments().size();
        }
      }
      if (!repacks.isEmpty()) {
        List<Long> ids = new ArrayList<>();
        List<DataFile> newFiles = new ArrayList<>();
        long readVersion = Long.MAX_VALUE;
        for (CompactionTaskResult r : repacks) {
          for (DataFile d : r.repackedFiles()) {
            ids.add(r.fragmentIds().get(0));
            newFiles.add(d);
          }
          readVersion = Math.min(readVersion, r.readVersion());
          repacked++;
        }
        files += newFiles.size();
        Transaction txn = Transaction.dataReplacement(readVersion, ids, newFiles, false);
        repackFiles.commit(); // the commit deletes them if it fails
        last = table.newCommit(txn).cleanupOnFailure(repackFiles.keys()).commit();
      }
    }
    Dataset at = last == null ? dataset : dataset.at(last);
    return new CompactionSummary(at, removed, added, repacked, files);
  }

  // The files the results wrote, deleted when closed unless committed.
  private static PendingFiles filesOf(Dataset dataset, List<CompactionTaskResult> results) {
    PendingFiles files = new PendingFiles(dataset.store());
    results.forEach(r -> files.addAll(r.writtenKeys()));
    return files;
  }

  // Commits the rewrites; `written` (their files, and the remapped indices' once written) is
  // handed over to the Rewrite's commit.
  private static Manifest commitRewrites(Dataset dataset, Table table, List<CompactionTaskResult> rewrites,
      boolean deferIndexRemap, PendingFiles written) {
    long readVersion = rewrites.stream().mapToLong(CompactionTaskResult::readVersion).min().getAsLong();
    Manifest read = readVersion == dataset.version() ? dataset.manifest() : table.load(readVersion);
    int count = rewrites.stream().mapToInt(r -> r.newFragments().size()).sum();
    List<List<Fragment>> olds = new ArrayList<>();
    List<List<Fragment>> news = new ArrayList<>();
    Transaction txn;
    long nextId = 0;
    Manifest latest = read;
    if (count > 0) {
      latest = table.newCommit(Transaction.reserveFragments(dataset.version(), count)).commit();
      nextId = latest.maxFragmentId().getAsLong() - count + 1;
    }
    for (CompactionTaskResult r : rewrites) {
      Manifest at = r.readVersion() == read.version() ? read : table.load(r.readVersion());
      List<Fragment> old = new ArrayList<>();
      for (long id : r.fragmentIds()) {
        old.add(at.fragments().stream().filter(f -> f.id() == id).findFirst().orElseThrow(() ->
            new CompactionException("Fragment " + id + " is not in version " + at.version() + ": "
                + dataset.location())));
      }
      List<Fragment> nw = new ArrayList<>();
      for (Fragment f : r.newFragments()) {
        nw.add(f.withId(nextId++));
      }
      olds.add(old);
      news.add(nw);
    }
    // With stable row ids, indices hold stable row ids, which the rewrite keeps: no index
    // needs a remap (deferred or not); the commit moves their coverage to the new fragments.
    if ((read.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
      txn = Transaction.rewrite(readVersion, olds, news, List.of(), UnremappedIndices.NONE);
    } else if (deferIndexRemap) {
      List<RoaringBitmap> deleted = new ArrayList<>();
      olds.forEach(g -> g.forEach(f -> deleted.add(deletedRows(dataset, f))));
      List<Long> oldIds = new ArrayList<>();
      olds.forEach(g -> g.forEach(f -> oldIds.add(f.id())));
      txn = Transaction.rewriteDeferringIndexRemap(readVersion, olds, news,
          FragReuseIndex.build(latest, olds, news, deleted, dataset.location()),
          IndexRemapper.deferring(read, oldIds));
    } else {
      IndexRemapper.Outcome indices = remapIndices(dataset, read, olds, news, written);
      txn = Transaction.rewrite(readVersion, olds, news, indices.remapped(), indices.unremapped());
    }
    written.commit(); // the commit deletes them if it fails
    return table.newCommit(txn).cleanupOnFailure(written.keys()).commit();
  }

  private static RoaringBitmap deletedRows(Dataset dataset, Fragment f) {
    try {
      return Deletes.deletedRows(dataset.store(), f, dataset.allocator());
    } catch (IOException e) {
      throw new UncheckedIOException("Reading the deletions of fragment " + f.id() + " failed: "
          + dataset.location(), e);
    }
  }

  // Indices covering the rewritten fragments that Javelin can remap get a copy under a new uuid
  // whose row addresses point at the new fragments (their files join `written`, so a failed
  // commit deletes them); the others stop covering the old fragments or retire their ids
  // (IndexRemapper.action says which, and why).
  private static IndexRemapper.Outcome remapIndices(Dataset dataset, Manifest read, List<List<Fragment>> olds,
      List<List<Fragment>> news, PendingFiles written) {
    List<Long> oldIds = new ArrayList<>();
    olds.forEach(g -> g.forEach(f -> oldIds.add(f.id())));
    List<IndexMetadata> covering = IndexRemapper.covering(read, oldIds);
    if (covering.isEmpty()) {
      return new IndexRemapper.Outcome(List.of(), UnremappedIndices.NONE);
    }
    List<RewriteAddressMap.Group> groups = new ArrayList<>();
    for (int g = 0; g < olds.size(); g++) {
      List<Long> ids = new ArrayList<>();
      List<Long> physical = new ArrayList<>();
      List<RoaringBitmap> deleted = new ArrayList<>();
      for (Fragment f : olds.get(g)) {
        ids.add(f.id());
        physical.add(f.physicalRows());
        deleted.add(deletedRows(dataset, f));
      }
      List<Long> newIds = new ArrayList<>();
      List<Long> newRows = new ArrayList<>();
      news.get(g).forEach(f -> {
        newIds.add(f.id());
        newRows.add(f.physicalRows());
      });
      groups.add(new RewriteAddressMap.Group(ids, physical, deleted, newIds, newRows));
    }
    // A zone map or bloom filter is built again over the fragments it covers after the rewrite:
    // those it covered and kept, and the new ones of the groups it covered.
    Set<Long> removed = new HashSet<>(oldIds);
    IndexRemapper remapper = new IndexRemapper((index, directory) -> {
      List<Fragment> after = new ArrayList<>();
      for (Fragment f : read.fragments()) {
        if (!removed.contains(f.id()) && DefaultCompactionPlanner.covers(index, f.id())) {
          after.add(f);
        }
      }
      for (int g = 0; g < olds.size(); g++) {
        if (olds.get(g).stream().allMatch(f -> DefaultCompactionPlanner.covers(index, f.id()))) {
          after.addAll(news.get(g));
        }
      }
      return ZonedRebuild.write(dataset, index, after, dataset.store(), directory, dataset.allocator());
    });
    try {
      return remapper.rewrite(dataset.store(), dataset.manifest().basePaths(), covering,
          new RewriteAddressMap(groups), dataset.allocator(),
          dataset.location());
    } finally {
      written.addAll(remapper.written());
    }
  }
}
