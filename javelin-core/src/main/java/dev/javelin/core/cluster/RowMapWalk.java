package dev.javelin.core.cluster;

import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.ClusterException;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowLineage;
import dev.javelin.table.rowids.RowVersionSequence;
import dev.javelin.table.rowmap.RowMapSummary;
import dev.javelin.table.rowmap.RowMapWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Walks every physical row of a clustering's sources in order, once pass 1 has decided the
 * destinations: a row whose address pass 1 read is live and labelled with its destination in
 * the row map, any other was deleted. With stable row ids, the walk also hands each destination
 * its rows' ids and versions, in the destination's order. Runs on a thread of its own while
 * pass 2 writes the data, and stops early once pass 2 failed.
 */
final class RowMapWalk {
  private RowMapWalk() {}

  /** What the walk made: the destinations' row lineage (null without stable row ids) and the row map's summary. */
  record Walked(RowLineage lineage, RowMapSummary summary) {}

  /**
   * Writes the labels to {@code rowMap} (and to {@code also} when not null), finishes and closes it.
   *
   * @param abandoned whether pass 2 failed: the walk then stops instead of finishing a file to delete
   */
  static Walked write(Dataset dataset, RowMapWriter rowMap, Manifest m, List<Fragment> sources, long[] addresses,
      int[] dest, long[] counts, LabelSink also, BooleanSupplier abandoned) throws IOException {
    try (rowMap) {
      RowLineage lineage = walk(dataset, m, sources, addresses, dest, counts, new RowMapLabels(rowMap, also),
          abandoned);
      return new Walked(lineage, rowMap.finish());
    }
  }

  private static RowLineage walk(Dataset dataset, Manifest m, List<Fragment> sources, long[] addresses, int[] dest,
      long[] counts, LabelSink labels, BooleanSupplier abandoned) throws IOException {
    boolean stable = (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
    RowLineage lineage = stable ? new RowLineage(counts) : null;
    int k = 0;
    long deleted = 0;
    for (Fragment f : sources) {
      RowIdSequence ids = null;
      Optional<RowVersionSequence> created = Optional.empty();
      Optional<RowVersionSequence> updated = Optional.empty();
      if (stable) {
        ids = f.rowIdSequence(dataset.store()).orElseThrow(() -> new ClusterException("Fragment " + f.id()
            + " has no row ids but the dataset has stable row ids: " + dataset.location()));
        created = f.createdAtVersions(dataset.store());
        updated = f.lastUpdatedAtVersions(dataset.store());
      }
      for (long o = 0; o < f.physicalRows(); o++) {
        if ((o & 0xFFFF) == 0 && abandoned.getAsBoolean()) {
          throw new CancellationException("Pass 2 failed: the row map of " + dataset.location() + " is abandoned");
        }
        if (k < addresses.length && addresses[k] == ((f.id() << 32) | o)) {
          if (labels != null) {
            labels.label(dest[k]);
          }
          if (lineage != null) {
            lineage.add(dest[k], ids.get(o), created.isPresent() ? created.get().get(o) : RowLineage.NONE,
                updated.isPresent() ? updated.get().get(o) : RowLineage.NONE);
          }
          k++;
        } else {
          if (labels != null) {
            labels.deleted();
          }
          deleted++;
        }
      }
    }
    if (k != addresses.length) {
      throw new IllegalStateException("The scan of fragments " + Clustering.ids(sources) + " returned row address "
          + Long.toHexString(addresses[k]) + " out of physical order: " + dataset.location());
    }
    if (labels != null) {
      labels.close(counts.clone(), deleted);
    }
    return lineage;
  }

  /** Sends the labels to the row map file, and to a test's sink when there is one. */
  private static final class RowMapLabels implements LabelSink {
    private final RowMapWriter out;
    private final LabelSink also;

    RowMapLabels(RowMapWriter out, LabelSink also) {
      this.out = out;
      this.also = also;
    }

    @Override
    public void label(int destinationIndex) {
      try {
        out.append(destinationIndex);
      } catch (IOException e) {
        throw new UncheckedIOException("Writing the row map failed: " + out.path(), e);
      }
      if (also != null) {
        also.label(destinationIndex);
      }
    }

    @Override
    public void deleted() {
      try {
        out.appendDeleted();
      } catch (IOException e) {
        throw new UncheckedIOException("Writing the row map failed: " + out.path(), e);
      }
      if (also != null) {
        also.deleted();
      }
    }

    @Override
    public void close(long[] perDestination, long deletedRows) {
      if (also != null) {
        also.close(perDestination, deletedRows);
      }
    }
  }
}
