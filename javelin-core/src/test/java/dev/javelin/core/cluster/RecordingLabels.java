package dev.javelin.core.cluster;

import java.util.ArrayList;
import java.util.List;

/** An in-memory row map: the labels in order, -1 for a deleted row. */
final class RecordingLabels implements LabelSink {
  final List<Integer> labels = new ArrayList<>();
  long[] totals;
  long deletedTotal = -1;

  @Override
  public void label(int destinationIndex) {
    labels.add(destinationIndex);
  }

  @Override
  public void deleted() {
    labels.add(-1);
  }

  @Override
  public void close(long[] perDestination, long deletedRows) {
    totals = perDestination;
    deletedTotal = deletedRows;
  }
}
