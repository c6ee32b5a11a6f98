package dev.javelin.index.ivf;

import java.util.Arrays;

/** The {@code k} smallest (distance, id) pairs seen, kept in a bounded max-heap. */
final class TopK {
  private final int k;
  private final float[] dist;
  private final long[] ids;
  private int size;

  TopK(int k) {
    this.k = k;
    this.dist = new float[Math.max(1, k)];
    this.ids = new long[Math.max(1, k)];
  }

  /** The largest kept distance, or +inf while fewer than k are kept: a cheaper pre-check. */
  float bound() {
    return size < k ? Float.POSITIVE_INFINITY : dist[0];
  }

  void offer(float d, long id) {
    if (k == 0 || Float.isNaN(d)) {
      return;
    }
    if (size < k) {
      int i = size++;
      dist[i] = d;
      ids[i] = id;
      while (i > 0) {
        int p = (i - 1) >>> 1;
        if (!worse(i, p)) {
          break;
        }
        swap(i, p);
        i = p;
      }
    } else if (d < dist[0] || (d == dist[0] && id < ids[0])) {
      dist[0] = d;
      ids[0] = id;
      siftDown(dist, ids, 0, size);
    }
  }

  /** Offers every pair {@code other} kept. */
  void offerAll(TopK other) {
    for (int i = 0; i < other.size; i++) {
      offer(other.dist[i], other.ids[i]);
    }
  }

  // Ties go by id so that results are deterministic.
  private boolean worse(int a, int b) {
    return worse(dist, ids, a, b);
  }

  private void swap(int a, int b) {
    swap(dist, ids, a, b);
  }

  /**
   * The kept pairs, nearest first. A heap sort of copies of the heap (already a max-heap): the
   * worst pair goes last, then the worst of the rest, ... without boxing; the heap stays as is.
   */
  Neighbors result() {
    float[] outDist = Arrays.copyOf(dist, size);
    long[] outIds = Arrays.copyOf(ids, size);
    for (int end = size - 1; end > 0; end--) {
      swap(outDist, outIds, 0, end);
      siftDown(outDist, outIds, 0, end);
    }
    return new Neighbors(outIds, outDist);
  }

  private static void siftDown(float[] d, long[] id, int i, int n) {
    while (true) {
      int l = 2 * i + 1;
      int r = l + 1;
      int w = i;
      if (l < n && worse(d, id, l, w)) {
        w = l;
      }
      if (r < n && worse(d, id, r, w)) {
        w = r;
      }
      if (w == i) {
        return;
      }
      swap(d, id, i, w);
      i = w;
    }
  }

  private static boolean worse(float[] d, long[] id, int a, int b) {
    return d[a] > d[b] || (d[a] == d[b] && id[a] > id[b]);
  }

  private static void swap(float[] d, long[] id, int a, int b) {
    float x = d[a];
    d[a] = d[b];
    d[b] = x;
    long t = id[a];
    id[a] = id[b];
    id[b] = t;
  }

  /** Merges result lists and keeps the {@code k} nearest. */
  static Neighbors merge(int k, Neighbors... lists) {
    TopK t = new TopK(k);
    for (Neighbors n : lists) {
      for (int i = 0; i < n.size(); i++) {
        t.offer(n.distances()[i], n.rowIds()[i]);
      }
    }
    return t.result();
  }
}
