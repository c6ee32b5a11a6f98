package dev.javelin.core.cluster;

import dev.javelin.common.ProgressListener;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.exceptions.ClusterException;
import dev.javelin.core.internal.index.IndexBuild;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.table.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Configures a clustering, a reordered rewrite: the live rows of some fragments are rewritten
 * into new fragments ordered by key columns, so that rows with close keys share a fragment and
 * filtered scans on those keys read fewer fragments. Reached by {@link Dataset#cluster()}:
 *
 * <pre>{@code
 * ClusterResult r = dataset.cluster().by("x", "y").curve(Curve.HILBERT)
 *     .targetRowsPerFragment(100_000).commit();
 * }</pre>
 *
 * <p>Rows are put in cluster order (see {@link Curve}) and cut into destination fragments of
 * {@link #targetRowsPerFragment} rows (the last may be smaller). Each destination receives its
 * rows in source order (a stable partition). With stable row ids every row keeps its id and row
 * versions. The rewrite commits on the version the dataset is at (a ReserveFragments for the new
 * ids, then a Rewrite); a failure deletes every file it wrote.
 *
 * <p>Then, unless {@link #noZoneMaps()} was asked for, each key column of a type a zone map holds
 * gets a fresh zone map (a ZONEMAP index, one CreateIndex commit per column; not on datasets with
 * stable row ids): an existing zone map
 * on the column is rebuilt under its name, otherwise one named {@code <column>_zonemap} is built.
 * Scans then skip the zones a filter on the key cannot match without any other index, which is
 * what clustering is for.
 */
public final class ClusterBuilder {
  /** Default destination size: Lance's default most rows per file. */
  public static final long DEFAULT_TARGET_ROWS_PER_FRAGMENT = 1024 * 1024;
  /** Default rows per read batch. */
  public static final int DEFAULT_BATCH_SIZE = 8192;

  private final Dataset dataset;
  private List<String> keys = List.of();
  private Curve curve;
  private long targetRowsPerFragment = DEFAULT_TARGET_ROWS_PER_FRAGMENT;
  private List<Long> fragmentIds;
  private int batchSize = DEFAULT_BATCH_SIZE;
  private LabelSink labels;
  private Runnable beforeCommit;
  private PartitionWriter lastWriter;
  private ProgressListener progress = ProgressListener.NONE;
  private long rowsPerZone = DEFAULT_ROWS_PER_ZONE;
  private boolean rowsPerZoneGiven;

  /** Default rows per zone of the zone maps built after clustering (Lance's default). */
  public static final long DEFAULT_ROWS_PER_ZONE = 8192;

  /** Use {@link Dataset#cluster()}. */
  public ClusterBuilder(Dataset dataset) {
    this.dataset = Objects.requireNonNull(dataset, "dataset");
  }

  /**
   * The key columns (top-level; integers, floats, dates, times, timestamps, durations, strings or
   * binaries), most significant first.
   */
  public ClusterBuilder by(String... columns) {
    return by(List.of(columns));
  }

  /** The key columns, most significant first. */
  public ClusterBuilder by(List<String> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("Cluster by at least one column: " + dataset.location());
    }
    if (columns.stream().distinct().count() != columns.size()) {
      throw new IllegalArgumentException("Key columns " + columns + " name a column twice: " + dataset.location());
    }
    this.keys = List.copyOf(columns);
    return this;
  }

  /** The order (default: RANGE for one key column, ZORDER for several). */
  public ClusterBuilder curve(Curve curve) {
    this.curve = Objects.requireNonNull(curve, "curve");
    return this;
  }

  /** Rows per destination fragment (default {@value #DEFAULT_TARGET_ROWS_PER_FRAGMENT}). */
  public ClusterBuilder targetRowsPerFragment(long rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("targetRowsPerFragment must be at least 1: " + rows);
    }
    this.targetRowsPerFragment = rows;
    return this;
  }

  /**
   * The fragments to rewrite, by id, in the order their rows are read (default: every fragment,
   * in manifest order).
   */
  public ClusterBuilder fragments(List<Long> ids) {
    if (ids.isEmpty()) {
      throw new IllegalArgumentException("Cluster at least one fragment: " + dataset.location());
    }
    if (ids.stream().distinct().count() != ids.size()) {
      throw new IllegalArgumentException("Fragments " + ids + " name a fragment twice: " + dataset.location());
    }
    this.fragmentIds = List.copyOf(ids);
    return this;
  }

  /**
   * Rows per read batch (default {@value #DEFAULT_BATCH_SIZE}); rows routed but not yet written
   * stay below this times the writing threads.
   */
  public ClusterBuilder batchSize(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1: " + rows);
    }
    this.batchSize = rows;
    return this;
  }

  /**
   * Hears the clustering's progress: pass 1 (read and sort the keys) and pass 2 (write every
   * column in the new order), each counting rows.
   */
  public ClusterBuilder progress(ProgressListener listener) {
    this.progress = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Rows per zone of the zone maps built on the key columns after clustering (default: an existing
   * zone map's, else {@value #DEFAULT_ROWS_PER_ZONE}).
   */
  public ClusterBuilder zoneMapRowsPerZone(long rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rows per zone must be at least 1: " + rows);
    }
    this.rowsPerZone = rows;
    this.rowsPerZoneGiven = true;
    return this;
  }

  /** Builds no zone maps on the key columns after clustering. */
  public ClusterBuilder noZoneMaps() {
    this.rowsPerZone = 0;
    return this;
  }

  /** Where the row map labels go (the reordered commit's row map writer); none by default. */
  ClusterBuilder labels(LabelSink sink) {
    this.labels = sink;
    return this;
  }

  /** Runs {@code hook} after each commit attempt's entry is built, before it commits (tests race there). */
  ClusterBuilder beforeCommit(Runnable hook) {
    this.beforeCommit = hook;
    return this;
  }

  /**
   * Rewrites and commits.
   *
   * @throws IllegalArgumentException if no key column was given
   * @throws dev.javelin.format.exceptions.ColumnNotFoundException if a key column is not in the dataset
   * @throws ClusterException if a key column's type cannot be ordered, a fragment is not in this
   *     version, an index covers one of the fragments, or the rows would make more than
   *     {@value Clustering#MAX_DESTINATIONS} destinations
   * @throws dev.javelin.table.exceptions.CommitConflictException if a concurrent commit rewrote one of the
   *     fragments, changed its values, or removed every one of them. Concurrent deletes of their
   *     rows (Deletes, and row-rewriting Updates' deletions of the rows they moved) are folded
   *     into the new fragments' deletion files instead; a concurrent clustering of other
   *     fragments is kept (both transitions are recorded).
   */
  public ClusterResult commit() {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("Name the key columns with by(...) before commit(): " + dataset.location());
    }
    Curve c = curve != null ? curve : keys.size() == 1 ? Curve.RANGE : Curve.ZORDER;
    Clustering run = new Clustering(dataset, keys, c, targetRowsPerFragment, fragmentIds, batchSize, labels)
        .beforeCommit(beforeCommit).progress(progress);
    ClusterResult clustered;
    try {
      clustered = run.execute();
    } finally {
      lastWriter = run.writer();
    }
    return rowsPerZone == 0 ? clustered : withZoneMaps(clustered);
  }

  // Builds or rebuilds a zone map on each key column a zone map can hold.
  private ClusterResult withZoneMaps(ClusterResult clustered) {
    Dataset ds = clustered.dataset();
    List<String> built = new ArrayList<>();
    if (ds.hasStableRowIds()) {
      return clustered; // zone maps name rows by address, which such datasets' indices do not
    }
    for (String key : keys) {
      if (!ScalarValues.supports(ds.fields(List.of(key)).get(0).toArrow().getType())) {
        continue;
      }
      IndexInfo existing = null;
      boolean taken = false;
      for (IndexInfo i : ds.indices()) {
        if (i.type() == IndexType.ZONEMAP && i.fields().equals(List.of(key)) && existing == null) {
          existing = i;
        }
        taken |= i.name().equals(key + "_zonemap");
      }
      if (existing == null && taken) {
        continue; // the default name is another kind of index's: leave it alone
      }
      String name = existing == null ? key + "_zonemap" : existing.name();
      long size = existing == null || rowsPerZoneGiven ? rowsPerZone : IndexBuild.zoneMapRowsPerZone(ds, name);
      Manifest m = IndexBuild.createZoneMap(ds, ds.table(), key, size, name, true, progress, ds.allocator());
      ds = ds.checkout(m.version());
      built.add(name);
    }
    return clustered.withZoneMaps(ds, built);
  }

  /** The last commit's partition writer (tests read its buffering peak). */
  PartitionWriter lastWriter() {
    return lastWriter;
  }
}
