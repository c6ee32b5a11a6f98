package dev.javelin.spark;

import org.apache.spark.TaskContext;

/**
 * Test hook: with the system property {@code javelin.spark.failFirstAttempt} set to a stage name
 * ({@code compaction}, {@code write}, {@code backfill}), the first attempt of every task of that
 * stage throws after writing its files, as a task killed before its result reaches the driver
 * would. Local mode only (the property is read in the executor's JVM).
 */
final class FailureInjection {
  static final String PROPERTY = "javelin.spark.failFirstAttempt";

  private FailureInjection() {}

  static void maybeFail(String stage, TaskContext ctx) {
    if (ctx != null && stage.equals(System.getProperty(PROPERTY)) && ctx.attemptNumber() == 0) {
      throw new IllegalStateException("Injected failure of the first attempt of " + stage + " task "
          + ctx.partitionId());
    }
  }
}
