package dev.javelin.core;

import dev.javelin.core.internal.write.MergeInsert;
import dev.javelin.core.internal.write.MergeInsert.BySource;
import dev.javelin.core.internal.write.MergeInsert.Matched;
import dev.javelin.core.internal.write.MergeInsert.NotMatched;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A merge insert (upsert) being configured; {@link #commit()} runs it. Start with
 * {@link Dataset#mergeInsert(ArrowReader)}:
 *
 * <pre>{@code
 * MergeInsertResult r = dataset.mergeInsert(changes).on("id")
 *     .whenMatchedUpdateAll()
 *     .whenNotMatchedInsertAll()
 *     .commit();
 * }</pre>
 *
 * Source rows are matched to the dataset's rows by the key columns ({@link #on}); a NULL key
 * matches nothing. Defaults are Lance's: matched rows are left alone, unmatched source rows
 * inserted, and target rows no source row matched kept. The source must have the dataset's
 * columns (in any order) and each key at most once. Conditions use the filter language of
 * {@link ScanBuilder#filter}.
 */
public final class MergeInsertBuilder {
  private final Dataset dataset;
  private final ArrowReader source;
  private List<String> on;
  private Matched matched = Matched.DO_NOTHING;
  private String matchedIf;
  private NotMatched notMatched = NotMatched.INSERT_ALL;
  private BySource bySource = BySource.KEEP;
  private String bySourceIf;
  private boolean useIndex = true;
  private int conflictRetries = 10;
  private Duration retryTimeout = Duration.ofSeconds(30);
  private Path spillDirectory = Path.of(System.getProperty("java.io.tmpdir"));
  private boolean committed;

  MergeInsertBuilder(Dataset dataset, ArrowReader source) {
    this.dataset = dataset;
    this.source = Objects.requireNonNull(source, "source");
  }

  /** The key columns (top-level, scalar) whose values pair source rows with target rows. */
  public MergeInsertBuilder on(String... columns) {
    return on(List.of(columns));
  }

  /** The key columns. */
  public MergeInsertBuilder on(List<String> columns) {
    this.on = List.copyOf(columns);
    return this;
  }

  /** A matched target row is replaced by its source row (values, not identity: it keeps its row id). */
  public MergeInsertBuilder whenMatchedUpdateAll() {
    return whenMatched(Matched.UPDATE_ALL, null);
  }

  /**
   * A matched target row is replaced by its source row where {@code condition} is TRUE; it names
   * the two sides' columns as {@code target.x} and {@code source.x}, as in Lance
   * ({@code "source.ts > target.ts"}). Other matched rows are left as they are.
   */
  public MergeInsertBuilder whenMatchedUpdateIf(String condition) {
    return whenMatched(Matched.UPDATE_ALL, Objects.requireNonNull(condition, "condition"));
  }

  /** A matched target row is deleted. */
  public MergeInsertBuilder whenMatchedDelete() {
    return whenMatched(Matched.DELETE, null);
  }

  /** A matched target row is left as it is (the default: insert if not exists). */
  public MergeInsertBuilder whenMatchedDoNothing() {
    return whenMatched(Matched.DO_NOTHING, null);
  }

  /** Any match makes the merge fail with a MergeInsertException naming the key; nothing is committed. */
  public MergeInsertBuilder whenMatchedFail() {
    return whenMatched(Matched.FAIL, null);
  }

  private MergeInsertBuilder whenMatched(Matched m, String condition) {
    this.matched = m;
    this.matchedIf = condition;
    return this;
  }

  /** An unmatched source row is inserted (the default). */
  public MergeInsertBuilder whenNotMatchedInsertAll() {
    this.notMatched = NotMatched.INSERT_ALL;
    return this;
  }

  /** An unmatched source row is dropped. */
  public MergeInsertBuilder whenNotMatchedDoNothing() {
    this.notMatched = NotMatched.DO_NOTHING;
    return this;
  }

  /** A target row whose key no source row has is kept (the default). */
  public MergeInsertBuilder whenNotMatchedBySourceKeep() {
    this.bySource = BySource.KEEP;
    this.bySourceIf = null;
    return this;
  }

  /** A target row whose key no source row has is deleted (the source replaces the dataset's rows). */
  public MergeInsertBuilder whenNotMatchedBySourceDelete() {
    this.bySource = BySource.DELETE;
    this.bySourceIf = null;
    return this;
  }

  /**
   * A target row whose key no source row has is deleted where {@code condition}, over the
   * dataset's columns by their plain names, is TRUE (Lance's "replace range").
   */
  public MergeInsertBuilder whenNotMatchedBySourceDeleteIf(String condition) {
    this.bySource = BySource.DELETE;
    this.bySourceIf = Objects.requireNonNull(condition, "condition");
    return this;
  }

  /**
   * How many times a merge that lost a race against a commit that may have made its matches stale
   * is run again on the newest version (default 10, as Lance).
   */
  public MergeInsertBuilder conflictRetries(int retries) {
    if (retries < 0) {
      throw new IllegalArgumentException("conflictRetries must be at least 0: " + retries);
    }
    this.conflictRetries = retries;
    return this;
  }

  /** How long after the start no further attempt is made (default 30 s, as Lance). */
  public MergeInsertBuilder retryTimeout(Duration timeout) {
    this.retryTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /** Whether a BTree or bitmap index on the key may find the matches (default true). */
  public MergeInsertBuilder useIndex(boolean use) {
    this.useIndex = use;
    return this;
  }

  /**
   * Where the source's rows are kept while the merge runs (default {@code java.io.tmpdir}): they
   * are spilled to a temporary file there as the source is read, so that only its keys are held
   * in memory. The file is deleted when the merge ends, whether it succeeds or fails.
   */
  public MergeInsertBuilder spillDirectory(Path directory) {
    this.spillDirectory = Objects.requireNonNull(directory, "directory");
    return this;
  }

  private MergeInsert.Spec spec() {
    if (on == null) {
      throw new IllegalStateException("Say which columns are the key: on(columns)");
    }
    return new MergeInsert.Spec(on, matched, matchedIf, notMatched, bySource, bySourceIf, useIndex, conflictRetries,
        retryTimeout, spillDirectory);
  }

  /**
   * How the merge would find its matches in this version (which BTree index, which fragments are
   * read in full), without reading the source.
   *
   * @throws dev.javelin.core.exceptions.MergeInsertException if a key column is missing or not scalar
   */
  public MergeInsertPlan explain() {
    return MergeInsert.plan(dataset, spec());
  }

  /**
   * Reads the source (consumed, not closed), merges it and commits one Update. A commit that may
   * have made the matches stale (rows added or their keys changed, matched rows deleted or moved)
   * makes the merge run again on the newest version, up to {@link #conflictRetries} more times
   * and until {@link #retryTimeout}.
   *
   * @return the dataset at the committed version and the rows inserted, updated and deleted (this
   *     dataset and zeros if nothing changed; nothing is committed then)
   * @throws IllegalStateException if no key was given, or the merge was committed already
   * @throws dev.javelin.core.exceptions.MergeInsertException if a key column is missing or not
   *     scalar, two source rows share a key, or a row matched under {@link #whenMatchedFail()}
   * @throws dev.javelin.table.exceptions.SchemaMismatchException if the source's columns are not the dataset's
   * @throws dev.javelin.core.exceptions.ExpressionException if a condition does not parse or bind
   * @throws dev.javelin.table.exceptions.CommitConflictException if the attempts or time ran out,
   *     or the dataset was overwritten or restored meanwhile
   */
  public MergeInsertResult commit() {
    MergeInsert.Spec spec = spec();
    if (committed) {
      throw new IllegalStateException("This merge insert was committed already (its source is consumed)");
    }
    committed = true;
    return MergeInsert.run(dataset, source, spec);
  }
}
