package dev.javelin.core.internal.write;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.exceptions.InvalidUpdateException;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.overlay.OverlayUpdate;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Updates rows the way Lance does, committing an {@code Update}; each mode is one class, run
 * here with the assignments bound and the retries shared:
 *
 * <ul>
 *   <li>{@link #rewriteRows} (Lance's {@code UpdateBuilder}, mode {@code REWRITE_ROWS}, see
 *       {@link RowRewrite}): the matching rows move to new fragments, their old copies deleted.
 *   <li>{@link #rewriteColumns} (mode {@code REWRITE_COLUMNS}, see {@link ColumnRewrite}): the
 *       assigned columns of every fragment holding a matching row are written again as one new
 *       data file of that fragment.
 *   <li>{@link #overlay} (Javelin's data overlays, see {@link OverlayUpdate}).
 * </ul>
 *
 * <p>The modes share how rows are picked and columns read ({@link UpdateReads}) and how files are
 * tracked and committed ({@link UpdateFiles}). Like Lance, an update that loses against a
 * concurrent commit it cannot build on is run again on the newest version (up to
 * {@link #CONFLICT_RETRIES} times), unless the dataset was overwritten or restored meanwhile. A
 * failure deletes every file written.
 */
public final class Updater {
  /** How many times a conflicting update is redone on the newest version (Lance's default). */
  static final int CONFLICT_RETRIES = 10;

  private final Dataset ds;
  private final String location;

  public Updater(Dataset ds) {
    this.ds = ds;
    this.location = ds.location();
  }

  /** One assignment: the column (top-level, index in the schema) and its bound value. */
  public record Assignment(int index, LanceField field, Field arrow, BoundExpression value) {}

  public UpdateResult rewriteRows(String filter, Map<String, String> set) {
    bind(ds.schema(), set); // fail early, before any file is written
    return withRetries(at -> RowRewrite.once(at, filter, bind(at.schema(), set)));
  }

  public UpdateResult rewriteColumns(String filter, Map<String, String> set) {
    bind(ds.schema(), set);
    return withRetries(at -> ColumnRewrite.once(at, filter, bind(at.schema(), set)));
  }

  /** Writes the new values as data overlays (see {@link OverlayUpdate}). */
  public UpdateResult overlay(String filter, Map<String, String> set) {
    bind(ds.schema(), set);
    return withRetries(at -> OverlayUpdate.once(at, filter, bind(at.schema(), set)));
  }

  private UpdateResult withRetries(Function<Dataset, UpdateResult> attempt) {
    Dataset[] at = {ds};
    return Tasks.retry().maxAttempts(CONFLICT_RETRIES + 1).retryOn(CommitConflictException.class)
        .retryIf(e -> retryable(at[0].table(), (CommitConflictException) e))
        .run(n -> {
          if (n > 1) {
            at[0] = at[0].checkoutLatest();
          }
          return attempt.apply(at[0]);
        });
  }

  // An overwrite or restore replaced the data the update was asked about: Lance does not retry.
  static boolean retryable(Table table, CommitConflictException e) {
    try {
      OperationKind kind = table.transaction(table.load(e.conflictingVersion())).map(Transaction::kind)
          .orElse(OperationKind.UNKNOWN);
      return kind != OperationKind.OVERWRITE && kind != OperationKind.RESTORE && kind != OperationKind.UNKNOWN;
    } catch (RuntimeException lookup) {
      return false;
    }
  }

  private List<Assignment> bind(LanceSchema schema, Map<String, String> set) {
    if (set == null || set.isEmpty()) {
      throw new InvalidUpdateException("No columns to update: " + location, null);
    }
    List<Assignment> out = new ArrayList<>();
    List<LanceField> fields = schema.fields();
    for (Map.Entry<String, String> e : set.entrySet()) {
      String name = e.getKey();
      int index = -1;
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).name().equals(name)) {
          index = i;
        }
      }
      if (index < 0) {
        String why = name.contains(".") ? "Nested columns cannot be updated yet: '" + name + "'"
            : "Column '" + name + "' does not exist in the dataset";
        throw new InvalidUpdateException(why + ": " + location, name);
      }
      LanceField f = fields.get(index);
      Field arrow = f.toArrow();
      BoundExpression value = Expression.parse(e.getValue()).bindValue(schema);
      value.checkFits(arrow);
      out.add(new Assignment(index, f, arrow, value));
    }
    out.sort((a, b) -> Integer.compare(a.index, b.index));
    return out;
  }
}
