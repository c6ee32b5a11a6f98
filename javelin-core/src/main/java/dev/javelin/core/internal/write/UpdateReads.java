package dev.javelin.core.internal.write;

import dev.javelin.core.Dataset;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.exceptions.TableErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How an update picks its rows and what it reads, shared by the row, column and overlay
 * rewrites: a blank filter matches every row, any other is bound to the version's schema, and a
 * per-fragment rewrite reads only the columns its assignments and filter use.
 *
 * @param where the bound filter, or null when every row matches
 * @param fields the fields a per-fragment rewrite reads, in schema order: the assigned ones and
 *     those the values and the filter use
 */
public record UpdateReads(BoundExpression where, List<LanceField> fields) {
  /**
   * What a per-fragment rewrite (columns or overlays) of version {@code at} reads. Such a rewrite
   * keeps the rows where they are, so it cannot refresh their last-updated versions: refused on a
   * dataset with stable row ids.
   */
  public static UpdateReads perFragment(Dataset at, String filter, List<Updater.Assignment> set) {
    Manifest read = at.manifest();
    if (stableRowIds(read)) {
      throw TableErrors.stableRowIdsUnsupported(at.location(), read.version(), OperationKind.UPDATE);
    }
    BoundExpression where = everyRow(filter) ? null : Expression.parse(filter).bindFilter(at.schema());
    Set<String> need = new HashSet<>();
    set.forEach(a -> {
      need.add(a.field().name());
      need.addAll(a.value().columns());
    });
    if (where != null) {
      need.addAll(where.columns());
    }
    List<String> readNames = new ArrayList<>();
    at.schema().fields().forEach(f -> {
      if (need.contains(f.name())) {
        readNames.add(f.name());
      }
    });
    return new UpdateReads(where, at.fields(readNames));
  }

  /** Whether {@code filter} (null or blank) matches every row. */
  public static boolean everyRow(String filter) {
    return filter == null || filter.isBlank();
  }

  /** Whether the version's rows have stable row ids. */
  public static boolean stableRowIds(Manifest m) {
    return (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
  }
}
