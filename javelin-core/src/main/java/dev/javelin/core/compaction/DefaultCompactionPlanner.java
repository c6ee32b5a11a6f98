package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;
import dev.javelin.table.DataFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.exceptions.CorruptManifestException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * Javelin's planner. Fragment rewrites as Lance's {@code plan_compaction}: a fragment whose
 * deleted share passes the threshold is rewritten even alone, one with fewer physical rows than
 * the target only with candidate neighbours (consecutive in the manifest); runs are split to about
 * the target rows (and at most {@code maxSourceFragments}). Then a column repack for every
 * fragment no rewrite took whose layout passes the triggers (see {@link RepackPlanner}). Under
 * {@code maxSourceBytes}, tasks that would pass the budget are left for a later run.
 */
public final class DefaultCompactionPlanner implements CompactionPlanner {
  @Override
  public CompactionPlan plan(Dataset dataset, CompactionOptions options) {
    Manifest m = dataset.manifest();
    List<CompactionTask> tasks = new ArrayList<>();
    Set<Long> rewritten = new HashSet<>();
    long budget = options.maxSourceBytes().isPresent() ? options.maxSourceBytes().getAsLong() : Long.MAX_VALUE;
    if (options.scope() != CompactionScope.REPACK_COLUMNS) {
      for (List<Fragment> bin : rewriteBins(m, options)) {
        long bytes = bin.stream().flatMap(f -> f.files().stream()).mapToLong(DataFile::fileSizeBytes).sum();
        if (bytes > budget) {
          continue;
        }
        checkIndices(m, bin, options.deferIndexRemap(), dataset.location());
        budget -= bytes;
        List<Long> ids = new ArrayList<>();
        bin.forEach(f -> ids.add(f.id()));
        rewritten.addAll(ids);
        tasks.add(new CompactionTask(TaskKind.REWRITE_FRAGMENTS, m.version(), ids, List.of(), options));
      }
    }
    boolean repackTriggers = options.maxDataFilesPerFragment().isPresent() || options.columnGroups() != null;
    // Unlike Lance, whose repacks always re-encode, a repack can binary copy (ColumnRepacker), so
    // FORCE_BINARY_COPY plans repacks too.
    if (options.scope() != CompactionScope.REWRITE_FRAGMENTS && repackTriggers) {
      Integer maxFiles = options.maxDataFilesPerFragment().isPresent()
          ? options.maxDataFilesPerFragment().getAsInt() : null;
      for (Fragment f : m.fragments()) {
        if (rewritten.contains(f.id())) {
          continue;
        }
        FragmentColumns fc = new FragmentColumns(f, m.schema().fields());
        List<List<Integer>> files = RepackPlanner.plan(fc, maxFiles, options.columnGroups(), dataset.location());
        if (files.isEmpty()) {
          continue;
        }
        List<Integer> moved = new ArrayList<>();
        files.forEach(moved::addAll);
        long bytes = fc.bytesToRead(moved);
        if (bytes > budget) {
          continue;
        }
        budget -= bytes;
        tasks.add(new CompactionTask(TaskKind.REPACK_COLUMNS, m.version(), List.of(f.id()), files, options));
      }
    }
    return new CompactionPlan(m.version(), tasks, options);
  }

  private static List<List<Fragment>> rewriteBins(Manifest m, CompactionOptions options) {
    List<List<Fragment>> bins = new ArrayList<>();
    List<Fragment> bin = new ArrayList<>();
    List<Boolean> itself = new ArrayList<>();
    RoaringBitmap binIndexed = null;
    List<Fragment> frags = m.fragments();
    for (int i = 0; i <= frags.size(); i++) {
      Fragment f = i < frags.size() ? frags.get(i) : null;
      Boolean candidacy = null; // TRUE: compact itself, FALSE: with neighbours
      if (f != null) {
        double deleted = f.physicalRows() == 0 ? 0 : (double) (f.physicalRows() - f.liveRows()) / f.physicalRows();
        if (options.materializeDeletions() && deleted > options.materializeDeletionsThreshold()) {
          candidacy = Boolean.TRUE;
        } else if (f.physicalRows() < options.targetRowsPerFragment()) {
          candidacy = Boolean.FALSE;
        }
      }
      RoaringBitmap indexed = f == null ? null : indicesCovering(m, f.id());
      // A bin never mixes fragments covered by different indices (as Lance).
      if (candidacy == null || (!bin.isEmpty() && !indexed.equals(binIndexed))) {
        flush(bins, bin, itself, options);
        bin = new ArrayList<>();
        itself = new ArrayList<>();
      }
      if (candidacy != null) {
        bin.add(f);
        itself.add(candidacy);
        binIndexed = indexed;
      }
    }
    return bins;
  }

  private static void flush(List<List<Fragment>> bins, List<Fragment> bin, List<Boolean> itself,
      CompactionOptions options) {
    if (bin.isEmpty() || (bin.size() == 1 && !itself.get(0))) {
      return; // nothing gained
    }
    // Split into runs of at least the target rows; the remainder joins the last run.
    long target = options.targetRowsPerFragment();
    int start = 0;
    while (start < bin.size()) {
      int end = start;
      long rows = 0;
      while (end < bin.size() && rows < target) {
        rows += bin.get(end).liveRows();
        end++;
      }
      long rest = 0;
      for (int k = end; k < bin.size(); k++) {
        rest += bin.get(k).liveRows();
      }
      if (rest < target) {
        end = bin.size();
      }
      addLimited(bins, bin.subList(start, end), itself.subList(start, end), options);
      start = end;
    }
  }

  private static void addLimited(List<List<Fragment>> bins, List<Fragment> run, List<Boolean> itself,
      CompactionOptions options) {
    int max = options.maxSourceFragments().isPresent() ? options.maxSourceFragments().getAsInt() : run.size();
    for (int s = 0; s < run.size(); s += max) {
      int e = Math.min(run.size(), s + max);
      if (e - s == 1 && !itself.get(s)) {
        continue;
      }
      bins.add(new ArrayList<>(run.subList(s, e)));
    }
  }

  private static RoaringBitmap indicesCovering(Manifest m, long fragmentId) {
    RoaringBitmap out = new RoaringBitmap();
    List<IndexMetadata> indices = m.indices();
    for (int i = 0; i < indices.size(); i++) {
      // The fragment reuse system index covers what earlier rewrites wrote; it does not split bins.
      if (indices.get(i).name().equals(IndexRemapper.FRAG_REUSE_INDEX_NAME)) {
        continue;
      }
      if (covers(indices.get(i), fragmentId)) {
        out.add(i);
      }
    }
    return out;
  }

  static boolean covers(IndexMetadata index, long fragmentId) {
    try {
      return index.fragmentBitmap().contains((int) fragmentId);
    } catch (CorruptManifestException e) {
      throw new IllegalStateException("Index '" + index.name() + "' has a fragment bitmap that does not parse", e);
    }
  }

  /**
   * Refuses, before any work, a rewrite of fragments whose indices it could not keep right.
   * Remapping (the default) keeps every index kind right at commit ({@link IndexRemapper}); with
   * stable row ids no index needs a remap at all (they hold stable row ids, which the rewrite
   * keeps). Deferring the remap (without stable row ids; with them there is nothing to defer): an
   * inverted or vector index, which lance-core 7.0.0 cannot search through a fragment reuse index.
   */
  static void checkIndices(Manifest m, List<Fragment> fragments, boolean deferIndexRemap, String location) {
    if (deferIndexRemap && (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) == 0) {
      List<Long> ids = new ArrayList<>();
      fragments.forEach(f -> ids.add(f.id()));
      IndexRemapper.checkDeferrable(m, ids, location);
    }
  }
}
