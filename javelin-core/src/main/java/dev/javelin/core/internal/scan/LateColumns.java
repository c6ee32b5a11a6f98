package dev.javelin.core.internal.scan;

import dev.javelin.core.expr.BoundExpression;
import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a filtered scan reads its columns late: the filter's columns (and the meta columns) first,
 * then, only for the rows the filter keeps, the other fields. A batch that keeps no row costs only
 * its filter columns; one that keeps a few costs the other fields' rows from its first kept row
 * to its last. Both reads carry the row address, by which the second read's rows are matched to
 * the first's.
 */
final class LateColumns {
  /** The fields the filter reads, in scan order. */
  final List<LanceField> filterFields = new ArrayList<>();
  /** The meta columns of the filter read: the scan's, then the row address if the scan has none. */
  final List<DatasetReader.Meta> filterMetas;
  /** The other fields, in scan order. */
  final List<LanceField> restFields = new ArrayList<>();
  /** The rest read's meta columns: the row address. */
  static final List<DatasetReader.Meta> REST_METAS = List.of(DatasetReader.Meta.ROW_ADDR);
  /** Index of the row address in the filter read's batches. */
  final int filterAddress;
  // What the scan has seen: batches whose kept rows span a small part of the batch (or none), and
  // the others. Shared by the scan's threads; a hint, so races only blur it.
  private final AtomicInteger narrow = new AtomicInteger();
  private final AtomicInteger wide = new AtomicInteger();

  /**
   * For each column of the scan's unfiltered batch (fields, then meta columns): its index in the
   * filter read's batch, or {@code -1 - i} for index i of the rest read's batch.
   */
  final int[] source;

  private LateColumns(List<LanceField> fields, List<DatasetReader.Meta> metas, Set<String> filterColumns) {
    List<Integer> inFilter = new ArrayList<>();
    List<Integer> inRest = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      LanceField f = fields.get(i);
      if (filterColumns.contains(f.name())) {
        inFilter.add(filterFields.size());
        inRest.add(null);
        filterFields.add(f);
      } else {
        inFilter.add(null);
        inRest.add(restFields.size());
        restFields.add(f);
      }
    }
    List<DatasetReader.Meta> fm = new ArrayList<>(metas);
    if (!fm.contains(DatasetReader.Meta.ROW_ADDR)) {
      fm.add(DatasetReader.Meta.ROW_ADDR);
    }
    this.filterMetas = List.copyOf(fm);
    this.filterAddress = filterFields.size() + fm.indexOf(DatasetReader.Meta.ROW_ADDR);
    this.source = new int[fields.size() + metas.size()];
    for (int i = 0; i < fields.size(); i++) {
      source[i] = inFilter.get(i) != null ? inFilter.get(i) : -1 - inRest.get(i);
    }
    for (int m = 0; m < metas.size(); m++) {
      source[fields.size() + m] = filterFields.size() + m;
    }
  }

  /**
   * Notes a batch whose kept rows span {@code span} of its {@code batchRows} physical rows, and
   * says whether reading late still pays: a late read of the rest costs a decoder set up per batch,
   * so once most batches keep rows across more than a quarter of them, reading every column at once
   * costs less.
   */
  boolean record(long span, int batchRows) {
    if (span * 4 > batchRows) {
      wide.incrementAndGet();
    } else {
      narrow.incrementAndGet();
    }
    return pays();
  }

  /** Whether reading late pays, from the batches seen so far (it does until a few are seen). */
  boolean pays() {
    return wide.get() <= narrow.get() + 2;
  }

  /**
   * The split for a scan of {@code fields} and {@code metas} filtered by {@code filter}, or null
   * when reading late would not pay: the filter reads every field, or none.
   */
  static LateColumns of(List<LanceField> fields, List<DatasetReader.Meta> metas, BoundExpression filter) {
    if (filter == null) {
      return null;
    }
    Set<String> columns = Set.copyOf(filter.columns());
    long read = fields.stream().filter(f -> columns.contains(f.name())).count();
    if (read == 0 || read == fields.size()) {
      return null;
    }
    return new LateColumns(fields, metas, columns);
  }
}
