package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.compaction.CompactionExecutor;
import dev.javelin.core.compaction.CompactionTaskResult;
import dev.javelin.core.compaction.CompactionTask;
import dev.javelin.core.compaction.DefaultCompactionExecutor;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.SparkSession;

/**
 * Runs compaction tasks as Spark tasks: {@link #executeAll} runs a whole plan as one job, one
 * Spark task per compaction task; {@link #execute} (the {@link CompactionExecutor} contract, for
 * {@code Compaction.compact(dataset, options, planner, executor)}) runs one task as a job of its
 * own. Executors run {@link DefaultCompactionExecutor} against the dataset's files and send the
 * {@link CompactionTaskResult}s back; nothing is committed here.
 *
 * <p>Every file a task attempt creates is recorded in a job journal (see {@link JobJournal}), so
 * files of attempts that failed or whose result was lost are deleted once the job ends: a failed
 * job leaves no file, a successful one only the files of the results it returns.
 */
public final class SparkCompactionExecutor implements CompactionExecutor {
  private final SparkSession spark;
  private final Map<String, String> storage;

  /**
   * Opens datasets with the storage options of {@code spark}'s session config
   * ({@code spark.javelin.storage.<key>}).
   */
  public SparkCompactionExecutor(SparkSession spark) {
    this(spark, Map.of());
  }

  /**
   * Opens datasets, on the executors too, with {@code storageOptions} (Lance's key names) over
   * those of {@code spark}'s session config.
   */
  public SparkCompactionExecutor(SparkSession spark, Map<String, String> storageOptions) {
    this.spark = spark;
    this.storage = ConnectorOptions.merge(ConnectorOptions.fromSession(spark), storageOptions);
  }

  @Override
  public CompactionTaskResult execute(Dataset dataset, CompactionTask task) {
    return executeAll(dataset.location(), List.of(task)).get(0);
  }

  /**
   * Runs the tasks as one Spark job, one partition each; results in task order. If the job
   * fails, every file its attempts wrote is deleted and the failure is rethrown.
   */
  public List<CompactionTaskResult> executeAll(String uri, List<CompactionTask> tasks) {
    if (tasks.isEmpty()) {
      return List.of();
    }
    JobJournal journal = new JobJournal(uri, storage);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<CompactionTaskResult> results;
    try {
      results = jsc.parallelize(new ArrayList<>(tasks), tasks.size()).map(new RunTask(journal)).collect();
    } catch (Exception e) {
      // Spark's job failure is a checked SparkException that Scala does not declare: catch it too.
      journal.reconcile(List.of());
      throw e;
    }
    List<String> keep = new ArrayList<>();
    results.forEach(r -> keep.addAll(r.writtenKeys()));
    journal.reconcile(keep);
    return new ArrayList<>(results);
  }

  /** The executor side: one compaction task, run by the default executor. */
  static final class RunTask implements Function<CompactionTask, CompactionTaskResult>, Serializable {
    private static final long serialVersionUID = 1L;
    private final JobJournal journal;

    RunTask(JobJournal journal) {
      this.journal = journal;
    }

    @Override
    public CompactionTaskResult call(CompactionTask task) throws Exception {
      try (AutoCloseable attempt = journal.attempt(TaskContext.get());
          BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = Dataset.open(journal.recordingStore(), allocator).checkout(task.readVersion());
        CompactionTaskResult r = new DefaultCompactionExecutor().execute(ds, task);
        FailureInjection.maybeFail("compaction", TaskContext.get());
        return r;
      }
    }
  }
}
