package dev.javelin.spark;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressLog;
import dev.javelin.common.ProgressStage;
import dev.javelin.core.Dataset;
import dev.javelin.core.compaction.Compaction;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionPlan;
import dev.javelin.core.compaction.CompactionTaskResult;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction on Spark: the driver plans, the executors run one Spark task per compaction task
 * (fragment rewrites and column repacks alike), the driver commits. A job that fails commits
 * nothing and leaves no file behind.
 */
public final class SparkCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(SparkCompaction.class);

  private SparkCompaction() {}

  /**
   * Compacts the dataset at {@code uri} (a local path or {@code file:} URI every executor can
   * read, or an object store's: {@code s3://}, {@code s3a://}, ...), its store opened with
   * {@code storageOptions} (Lance's key names) over those of {@code spark}'s session config
   * ({@code spark.javelin.storage.<key>}), on the driver and every executor. The returned
   * metrics' dataset uses {@code allocator}.
   */
  public static CompactionSummary compact(SparkSession spark, String uri, Map<String, String> storageOptions,
      CompactionOptions options, BufferAllocator allocator) {
    Map<String, String> storage = ConnectorOptions.merge(ConnectorOptions.fromSession(spark), storageOptions);
    Dataset ds = Dataset.builder(uri).storageOptions(storage).allocator(allocator).load();
    CompactionPlan plan = Compaction.plan(ds, options);
    List<CompactionTaskResult> results;
    // The driver logs the run (Spark's UI shows the tasks themselves).
    try (ProgressStage stage = ProgressStage.start(new ProgressLog(LOG), "compact " + uri, "Spark tasks",
        plan.tasks().size(), Progress.Unit.TASKS)) {
      results = new SparkCompactionExecutor(spark, storage).executeAll(uri, plan.tasks());
      stage.advance(results.size());
    }
    return Compaction.commit(ds, results, plan.options());
  }

  /**
   * As {@link #compact(SparkSession, String, Map, CompactionOptions, BufferAllocator)} with the
   * storage options of the session config only.
   */
  public static CompactionSummary compact(SparkSession spark, String uri, CompactionOptions options,
      BufferAllocator allocator) {
    return compact(spark, uri, Map.of(), options, allocator);
  }

  /** As {@link #compact(SparkSession, String, CompactionOptions, BufferAllocator)}, on Spark's allocator. */
  public static CompactionSummary compact(SparkSession spark, String uri, CompactionOptions options) {
    return compact(spark, uri, options, org.apache.spark.sql.util.ArrowUtils.rootAllocator());
  }
}
