package dev.javelin.index.internal.ivf;

import dev.javelin.index.DistanceType;

/**
 * Exact nearest-neighbour search by brute force: feed it vectors with their row ids, then ask for
 * the {@code k} nearest. Used without an index, for fragments an index does not cover, and to
 * re-rank index candidates with the true vectors.
 */
public final class FlatSearch {
  private final float[] query;
  private final DistanceType distanceType;
  private final TopK top;

  /** Searches for the {@code k} vectors nearest {@code query}. */
  public FlatSearch(float[] query, DistanceType distanceType, int k) {
    this.query = query.clone();
    this.distanceType = distanceType;
    this.top = new TopK(k);
  }

  /**
   * Considers {@code rows} vectors stored back to back in {@code vectors} from {@code offset}
   * (each of the query's length), with row ids {@code ids[0..rows)}.
   */
  public void add(float[] vectors, int offset, int rows, long[] ids) {
    int dim = query.length;
    for (int r = 0; r < rows; r++) {
      top.offer(distanceType.distance(query, 0, vectors, offset + r * dim, dim), ids[r]);
    }
  }

  /** Considers one vector. */
  public void add(float[] vector, int offset, long id) {
    top.offer(distanceType.distance(query, 0, vector, offset, query.length), id);
  }

  /** The nearest rows seen, nearest first. */
  public Neighbors result() {
    return top.result();
  }
}
