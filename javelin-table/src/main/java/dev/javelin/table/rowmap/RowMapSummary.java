package dev.javelin.table.rowmap;

import dev.javelin.table.proto.TableProtos;
import java.util.Arrays;

/**
 * The counts a row map file carries without a scan: its rows (one label per source physical row),
 * how many are deleted (null labels), the number of destinations and each destination's label
 * total. Immutable.
 */
public final class RowMapSummary {
  private final long rows;
  private final long deleted;
  private final long[] destinationRows;

  RowMapSummary(long rows, long deleted, long[] destinationRows) {
    this.rows = rows;
    this.deleted = deleted;
    this.destinationRows = destinationRows.clone();
  }

  /** Labels in the row map: the sources' physical rows. */
  public long rows() {
    return rows;
  }

  /** Null labels: source rows that were deleted when the rewrite read them. */
  public long deleted() {
    return deleted;
  }

  /** Labeled rows: {@code rows() - deleted()}, the rows the destinations hold. */
  public long labeled() {
    return rows - deleted;
  }

  /** The number of destinations (labels are below it). */
  public int destinations() {
    return destinationRows.length;
  }

  /** How many labels name destination {@code d}. */
  public long destinationRows(int d) {
    return destinationRows[d];
  }

  TableProtos.RowMapSummary toProto() {
    TableProtos.RowMapSummary.Builder b = TableProtos.RowMapSummary.newBuilder()
        .setRows(rows).setDeleted(deleted).setDestinations(destinationRows.length);
    for (long n : destinationRows) {
      b.addDestinationRows(n);
    }
    return b.build();
  }

  // Rejects a summary that contradicts itself or the file (label totals must add up).
  static RowMapSummary fromProto(TableProtos.RowMapSummary p, long fileRows, String location) {
    if (p.getDestinationRowsCount() != p.getDestinations()) {
      throw RowMapReader.corrupt(location, "summary names " + p.getDestinations() + " destinations but has "
          + p.getDestinationRowsCount() + " destination totals");
    }
    long[] totals = new long[p.getDestinationRowsCount()];
    long sum = p.getDeleted();
    for (int i = 0; i < totals.length; i++) {
      totals[i] = p.getDestinationRows(i);
      sum += totals[i];
    }
    if (p.getRows() != fileRows || sum != fileRows) {
      throw RowMapReader.corrupt(location, "summary counts " + p.getRows() + " rows (" + p.getDeleted()
          + " deleted + " + (sum - p.getDeleted()) + " labeled) but the file has " + fileRows);
    }
    return new RowMapSummary(p.getRows(), p.getDeleted(), totals);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowMapSummary && ((RowMapSummary) o).rows == rows && ((RowMapSummary) o).deleted == deleted
        && Arrays.equals(((RowMapSummary) o).destinationRows, destinationRows);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rows) * 31 + Arrays.hashCode(destinationRows);
  }

  @Override
  public String toString() {
    return "RowMapSummary{rows=" + rows + ", deleted=" + deleted + ", destinationRows="
        + Arrays.toString(destinationRows) + "}";
  }
}
