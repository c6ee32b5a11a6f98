package dev.javelin.index.internal.ivf;


/**
 * Search results, nearest first: row ids (row addresses without stable row ids) and their
 * distances, of equal length.
 */
public record Neighbors(long[] rowIds, float[] distances) {
  public int size() {
    return rowIds.length;
  }

  /** The {@code k} nearest of several result lists (ties by row id). */
  public static Neighbors merge(int k, Neighbors... lists) {
    return TopK.merge(k, lists);
  }
}
