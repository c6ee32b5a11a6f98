package dev.javelin.index.internal.ivf;

import java.util.Arrays;

/**
 * The {@code k} smallest (distance, id) pairs seen. A small k is kept in a bounded max-heap; a
 * large one (a re-ranked search asks for k * refine, e.g. 2,000) in a buffer of 2k pairs that,
 * when full, is cut back to its k smallest by a quickselect: O(1) per offer instead of a sift
 * through log2(k) levels (the heap took a fifth of a 1M-row search). Both keep exactly the k
 * smallest, ties by id.
 */
final class TopK {
  // Above this k the buffer-and-select mode is used.
  private static final int HEAP_MAX = 64;
  private final int k;
  private final boolean select;
  private final float[] dist;
  private final long[] ids;
  private int size;
  // Select mode: the k-th smallest distance at the last cut (+inf before the first).
  private float cut = Float.POSITIVE_INFINITY;

  TopK(int k) {
    this.k = k;
    this.select = k > HEAP_MAX;
    int capacity = select ? 2 * k : Math.max(1, k);
    this.dist = new float[capacity];
    this.ids = new long[capacity];
  }

  /**
   * A distance above which an offer is certainly rejected, or +inf while fewer than k are kept:
   * a cheaper pre-check.
   */
  float bound() {
    if (select) {
      return cut;
    }
    return size < k ? Float.POSITIVE_INFINITY : dist[0];
  }

  void offer(float d, long id) {
    if (k == 0 || Float.isNaN(d)) {
      return;
    }
    if (select) {
      if (d > cut) {
        return;
      }
      dist[size] = d;
      ids[size] = id;
      if (++size == dist.length) {
        cutToK();
      }
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
    if (select) {
      if (size > k) {
        cutToK();
      }
      for (int i = size / 2 - 1; i >= 0; i--) {
        siftDown(dist, ids, i, size);
      }
    }
    float[] outDist = Arrays.copyOf(dist, size);
    long[] outIds = Arrays.copyOf(ids, size);
    for (int end = size - 1; end > 0; end--) {
      swap(outDist, outIds, 0, end);
      siftDown(outDist, outIds, 0, end);
    }
    return new Neighbors(outIds, outDist);
  }

  // Select mode: keeps the k smallest pairs (at [0, k), the k-th smallest last) and drops the rest.
  private void cutToK() {
    int lo = 0;
    int hi = size - 1;
    int target = k - 1;
    while (hi > lo) {
      // Median of three as the pivot, moved to hi; then a Lomuto partition (pairs are distinct).
      int mid = (lo + hi) >>> 1;
      if (worse(dist, ids, lo, mid)) {
        swap(dist, ids, lo, mid);
      }
      if (worse(dist, ids, mid, hi)) {
        swap(dist, ids, mid, hi);
        if (worse(dist, ids, lo, mid)) {
          swap(dist, ids, lo, mid);
        }
      }
      swap(dist, ids, mid, hi);
      int store = lo;
      for (int i = lo; i < hi; i++) {
        if (worse(dist, ids, hi, i)) {
          swap(dist, ids, i, store++);
        }
      }
      swap(dist, ids, store, hi);
      if (store == target) {
        break;
      }
      if (target < store) {
        hi = store - 1;
      } else {
        lo = store + 1;
      }
    }
    size = k;
    cut = dist[k - 1];
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
