package dev.javelin.core;

import dev.javelin.io.RequestCounts;
import java.time.Duration;
import java.util.Locale;

/**
 * What running a query did ({@code analyze()} of a scan or a vector search): the plan it ran, the
 * rows it returned, how long it took and the requests it sent to the dataset's store, by kind,
 * with the bytes they moved. Requests are counted by the store's client (one per bucket or
 * container in a {@link Session}), so other work on the same store at the same time is counted
 * too; a local store counts none.
 *
 * @param plan the plan, as {@code explain()} gives it
 * @param rows rows returned
 * @param batches batches returned (1 for a vector search)
 * @param elapsed wall time from the start of the query to its last row
 * @param requests the store's requests while the query ran
 */
public record QueryAnalysis<P extends QueryPlan>(P plan, long rows, long batches, Duration elapsed,
    RequestCounts requests) {

  /** The plan's lines, then what the run did (the CLI's {@code --analyze}). */
  public String describe() {
    return plan.describe()
        + "rows: " + rows + (batches == 1 ? " in 1 batch" : " in " + batches + " batches")
        + ", " + String.format(Locale.ROOT, "%.1f ms", elapsed.toNanos() / 1e6) + '\n'
        + "requests: " + requests + '\n';
  }
}
