package dev.javelin.core.compaction;

import dev.javelin.common.ProgressListener;
import dev.javelin.core.Dataset;
import java.util.List;
import java.util.Objects;

/**
 * A compaction of one dataset being configured; {@link #commit()} plans, runs and commits it
 * (see {@link Dataset#compact()}). The settings are those of {@link CompactionOptions}, whose
 * javadoc says what each does; the dataset's {@code lance.compaction.*} config applies under them.
 *
 * <pre>{@code
 * CompactionSummary s = dataset.compact().targetRowsPerFragment(1 << 20).maxDataFilesPerFragment(2).commit();
 * }</pre>
 */
public final class CompactBuilder {
  private final Dataset dataset;
  private CompactionOptions.Builder options = CompactionOptions.builder();
  private CompactionPlanner planner = new DefaultCompactionPlanner();
  private CompactionExecutor executor = new DefaultCompactionExecutor();
  private ProgressListener progress = ProgressListener.NONE;

  /** Starts configuring a compaction of {@code dataset}'s version with the default options. */
  public CompactBuilder(Dataset dataset) {
    this.dataset = Objects.requireNonNull(dataset, "dataset");
  }

  /** Starts from these options instead of the defaults (later settings change them). */
  public CompactBuilder options(CompactionOptions options) {
    this.options = options.toBuilder();
    return this;
  }

  /** See {@link CompactionOptions.Builder#targetRowsPerFragment}. */
  public CompactBuilder targetRowsPerFragment(long rows) {
    options.targetRowsPerFragment(rows);
    return this;
  }

  /** See {@link CompactionOptions.Builder#maxRowsPerGroup}. */
  public CompactBuilder maxRowsPerGroup(int rows) {
    options.maxRowsPerGroup(rows);
    return this;
  }

  /** See {@link CompactionOptions.Builder#maxBytesPerFile}. */
  public CompactBuilder maxBytesPerFile(long bytes) {
    options.maxBytesPerFile(bytes);
    return this;
  }

  /** See {@link CompactionOptions.Builder#materializeDeletions}. */
  public CompactBuilder materializeDeletions(boolean on) {
    options.materializeDeletions(on);
    return this;
  }

  /** See {@link CompactionOptions.Builder#materializeDeletionsThreshold}. */
  public CompactBuilder materializeDeletionsThreshold(double share) {
    options.materializeDeletionsThreshold(share);
    return this;
  }

  /** See {@link CompactionOptions.Builder#maxSourceFragments}. */
  public CompactBuilder maxSourceFragments(int fragments) {
    options.maxSourceFragments(fragments);
    return this;
  }

  /** See {@link CompactionOptions.Builder#maxSourceBytes}. */
  public CompactBuilder maxSourceBytes(long bytes) {
    options.maxSourceBytes(bytes);
    return this;
  }

  /** See {@link CompactionOptions.Builder#maxDataFilesPerFragment}. */
  public CompactBuilder maxDataFilesPerFragment(int files) {
    options.maxDataFilesPerFragment(files);
    return this;
  }

  /** See {@link CompactionOptions.Builder#columnGroups}. */
  public CompactBuilder columnGroups(List<List<String>> groups) {
    options.columnGroups(groups);
    return this;
  }

  /** See {@link CompactionOptions.Builder#scope}. */
  public CompactBuilder scope(CompactionScope scope) {
    options.scope(scope);
    return this;
  }

  /** See {@link CompactionOptions.Builder#mode}. */
  public CompactBuilder mode(CompactionMode mode) {
    options.mode(mode);
    return this;
  }

  /** See {@link CompactionOptions.Builder#numThreads}. */
  public CompactBuilder numThreads(int threads) {
    options.numThreads(threads);
    return this;
  }

  /** See {@link CompactionOptions.Builder#deferIndexRemap}. */
  public CompactBuilder deferIndexRemap(boolean on) {
    options.deferIndexRemap(on);
    return this;
  }

  /** See {@link CompactionOptions.Builder#batchSize}. */
  public CompactBuilder batchSize(int rows) {
    options.batchSize(rows);
    return this;
  }

  /** Plans with {@code planner} instead of the default one. */
  public CompactBuilder planner(CompactionPlanner planner) {
    this.planner = Objects.requireNonNull(planner, "planner");
    return this;
  }

  /** Runs the tasks with {@code executor} (a distributed engine's) instead of in this process. */
  public CompactBuilder executor(CompactionExecutor executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
    return this;
  }

  /**
   * Hears the run's progress: one stage, {@code rewrite and repack}, counting the rows of the
   * tasks' fragments as each task completes.
   */
  public CompactBuilder progress(ProgressListener listener) {
    this.progress = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /** The options as set so far. */
  public CompactionOptions options() {
    return options.build();
  }

  /** The tasks a commit would run, without running them (table config applied). */
  public CompactionPlan plan() {
    return Compaction.plan(dataset, options.build(), planner);
  }

  /**
   * Plans, runs every task and commits (see {@link Dataset#compact()}).
   *
   * @return what was committed, with the dataset at the last version committed (this one when
   *     there was nothing to do)
   */
  public CompactionSummary commit() {
    return Compaction.compact(dataset, options.build(), planner, executor, progress);
  }
}
