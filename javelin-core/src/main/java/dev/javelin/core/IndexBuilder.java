package dev.javelin.core;

import dev.javelin.common.ProgressListener;
import dev.javelin.core.internal.index.IndexBuild;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfParams;
import dev.javelin.index.internal.ivf.IvfHnswSqIndex;
import dev.javelin.table.Manifest;
import dev.javelin.index.IvfPqParams;
import java.util.Objects;

/**
 * An index over one column being configured; {@link #commit()} builds it from every row and
 * commits it (a CreateIndex). Start with {@link Dataset#createIndex(String)}:
 *
 * <pre>{@code
 * dataset.createIndex("id").btree().name("id_idx").replace().commit();
 * dataset.createIndex("embedding").ivfPq(IvfPqParams.of(256, 16, DistanceType.L2)).commit();
 * dataset.createIndex("embedding").ivfFlat(256, DistanceType.COSINE).commit();
 * dataset.createIndex("category").bitmap().commit();
 * dataset.createIndex("ts").zonemap(4096).commit();
 * dataset.createIndex("tags").labelList().commit();
 * }</pre>
 */
public final class IndexBuilder {
  private final Dataset dataset;
  private final String column;
  private IndexType type;
  private IvfPqParams params;
  // IVF_FLAT or IVF_SQ: their parameters, and which (null: neither).
  private IvfParams ivfParams;
  private boolean ivfFlat;
  // IVF_HNSW_SQ: the graph parameters (null: not HNSW).
  private IvfHnswSqIndex.HnswParams hnsw;
  private long rowsPerZone;
  private long bloomItems;
  private double bloomProbability;
  private String name;
  private boolean replace;
  private ProgressListener progress = ProgressListener.NONE;

  IndexBuilder(Dataset dataset, String column) {
    this.dataset = dataset;
    this.column = Objects.requireNonNull(column, "column");
  }

  /** A BTree scalar index: equality, range and IN filters. */
  public IndexBuilder btree() {
    return type(IndexType.BTREE);
  }

  /**
   * A bitmap index: the rows of each distinct value, for low-cardinality columns. Answers
   * equality, IN, ranges and IS NULL exactly.
   */
  public IndexBuilder bitmap() {
    return type(IndexType.BITMAP);
  }

  /**
   * A zone map with Lance's default zone size (8,192 rows): min, max and null count per zone, so
   * scans skip the zones a comparison, BETWEEN, IN or IS NULL filter cannot match.
   */
  public IndexBuilder zonemap() {
    return type(IndexType.ZONEMAP);
  }

  /**
   * A zone map with zones of {@code rowsPerZone} rows (zones also end at each fragment's end).
   *
   * @throws IllegalArgumentException if {@code rowsPerZone} is not positive
   */
  public IndexBuilder zonemap(long rowsPerZone) {
    if (rowsPerZone <= 0) {
      throw new IllegalArgumentException("rows per zone must be positive: " + rowsPerZone);
    }
    type(IndexType.ZONEMAP);
    this.rowsPerZone = rowsPerZone;
    return this;
  }

  /**
   * A bloom filter index with Lance's defaults (zones of 8,192 rows, false positive rate 0.00057):
   * scans skip the zones an equality, IN or IS NULL filter cannot match.
   */
  public IndexBuilder bloomFilter() {
    return type(IndexType.BLOOM_FILTER);
  }

  /**
   * A bloom filter index over zones of {@code items} rows, each filter sized for that many values
   * at false positive rate {@code probability}.
   *
   * @throws IllegalArgumentException if {@code items} is not positive or {@code probability} not in (0, 1)
   */
  public IndexBuilder bloomFilter(long items, double probability) {
    if (items <= 0) {
      throw new IllegalArgumentException("bloom filter items per zone must be positive: " + items);
    }
    if (!(probability > 0 && probability < 1)) {
      throw new IllegalArgumentException("bloom filter false positive probability must be in (0, 1): "
          + probability);
    }
    type(IndexType.BLOOM_FILTER);
    this.bloomItems = items;
    this.bloomProbability = probability;
    return this;
  }

  /**
   * A label list index over a list column: the rows holding each element. Answers
   * {@code array_has_any}, {@code array_has_all} and {@code array_has} / {@code array_contains}.
   */
  public IndexBuilder labelList() {
    return type(IndexType.LABEL_LIST);
  }

  /**
   * An n-gram index over a string column: the rows holding each trigram of letters and digits
   * (lower-cased). Narrows {@code contains(col, 'x')} and {@code LIKE} filters to candidate rows,
   * which the scan checks again.
   */
  public IndexBuilder ngram() {
    return type(IndexType.NGRAM);
  }

  /** An IVF_PQ vector index with Lance's default parameters for the column's size and width. */
  public IndexBuilder vector() {
    return type(IndexType.VECTOR);
  }

  /** An IVF_PQ vector index with these parameters. */
  public IndexBuilder ivfPq(IvfPqParams params) {
    this.type = IndexType.VECTOR;
    this.params = Objects.requireNonNull(params, "params");
    return this;
  }

  /**
   * An IVF_FLAT vector index: {@code partitions} k-means partitions, each storing its vectors as
   * they are; a search is exact within the partitions it probes.
   *
   * @throws IllegalArgumentException if {@code partitions} is not positive
   */
  public IndexBuilder ivfFlat(int partitions, DistanceType distance) {
    return ivfFlat(IvfParams.of(partitions, distance));
  }

  /** An IVF_FLAT vector index with these parameters. */
  public IndexBuilder ivfFlat(IvfParams params) {
    type(IndexType.VECTOR);
    this.ivfParams = Objects.requireNonNull(params, "params");
    this.ivfFlat = true;
    return this;
  }

  /**
   * An IVF_SQ vector index: {@code partitions} k-means partitions, each storing its vectors as
   * 8-bit scalar-quantized codes (one byte per dimension).
   *
   * @throws IllegalArgumentException if {@code partitions} is not positive
   */
  public IndexBuilder ivfSq(int partitions, DistanceType distance) {
    return ivfSq(IvfParams.of(partitions, distance));
  }

  /** An IVF_SQ vector index with these parameters. */
  public IndexBuilder ivfSq(IvfParams params) {
    type(IndexType.VECTOR);
    this.ivfParams = Objects.requireNonNull(params, "params");
    this.ivfFlat = false;
    return this;
  }

  /**
   * An IVF_HNSW_SQ vector index: IVF_SQ's partitions and codes, and in each partition an HNSW
   * graph searched {@code ef} wide (the low-latency choice), with Lance's graph defaults
   * ({@code m} 20, {@code ef_construction} 150).
   */
  public IndexBuilder ivfHnswSq(int partitions, DistanceType distance) {
    return ivfHnswSq(IvfParams.of(partitions, distance), 20, 150);
  }

  /**
   * An IVF_HNSW_SQ vector index with these IVF parameters, {@code m} neighbours per node (twice
   * that on the bottom level) and graph build width {@code efConstruction}, as Lance names them.
   *
   * @throws IllegalArgumentException if {@code m} is below 2 or {@code efConstruction} below 1
   */
  public IndexBuilder ivfHnswSq(IvfParams params, int m, int efConstruction) {
    IvfHnswSqIndex.HnswParams graph = new IvfHnswSqIndex.HnswParams(m, efConstruction, 7);
    ivfSq(params);
    this.hnsw = graph;
    return this;
  }

  /** The kind of index ({@link IndexType#VECTOR}: IVF_PQ with Lance's default parameters). */
  public IndexBuilder type(IndexType type) {
    this.type = Objects.requireNonNull(type, "type");
    this.params = null;
    this.ivfParams = null;
    this.hnsw = null;
    this.rowsPerZone = 0;
    this.bloomItems = 0;
    this.bloomProbability = 0;
    return this;
  }

  /** The index name (default {@code <column>_idx}). */
  public IndexBuilder name(String name) {
    this.name = Objects.requireNonNull(name, "name");
    return this;
  }

  /** Replace an index of the same name instead of refusing to build. */
  public IndexBuilder replace() {
    this.replace = true;
    return this;
  }

  /**
   * Hears the build's progress: a stage per pass over the rows (a vector index reads its sample
   * for training first, then every row), counting rows, then the writing of the index's files.
   */
  public IndexBuilder progress(ProgressListener listener) {
    this.progress = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Builds the index and commits it.
   *
   * @throws IllegalStateException if no kind of index was chosen
   * @throws IllegalArgumentException if the column cannot be indexed so
   * @throws dev.javelin.core.exceptions.IndexExistsException if the name is taken and {@link #replace()} was not asked for
   */
  public CreateIndexResult commit() {
    if (type == null) {
      throw new IllegalStateException("Choose the kind of index on '" + column
          + "': btree(), bitmap(), zonemap(), bloomFilter(), labelList(), ngram(), vector(), ivfPq(params)"
          + " or type(...)");
    }
    Dataset after;
    if (ivfParams != null) {
      Manifest m = IndexBuild.createIvf(dataset, dataset.table(), column, ivfFlat, ivfParams, hnsw, name, replace,
          progress, dataset.allocator());
      after = dataset.checkout(m.version());
    } else if (rowsPerZone > 0 || bloomItems > 0) {
      Manifest m = rowsPerZone > 0
          ? IndexBuild.createZoneMap(dataset, dataset.table(), column, rowsPerZone, name, replace, progress,
              dataset.allocator())
          : IndexBuild.createBloomFilter(dataset, dataset.table(), column, bloomItems, bloomProbability, name,
              replace, progress, dataset.allocator());
      after = dataset.checkout(m.version());
    } else {
      after = dataset.buildIndex(column, type, params, name, replace, progress);
    }
    String built = name == null ? column + "_idx" : name;
    IndexInfo info = after.indices().stream().filter(i -> i.name().equals(built)).findFirst()
        .orElseThrow(() -> new IllegalStateException("The index just built is missing: " + built));
    return new CreateIndexResult(after, info);
  }
}
