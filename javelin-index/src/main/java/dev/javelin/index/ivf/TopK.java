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
      int i = 0;
      while (true) {
        int l = 2 * i + 1;
        int r = l + 1;
        int w = i;
        if (l < size && worse(l, w)) {
          w = l;
        }
        if (r < size && worse(r, w)) {
          w = r;
        }
        if (w == i) {
          break;
        }
        swap(i, w);
        i = w;
      }
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
    return dist[a] > dist[b] || (dist[a] == dist[b] && ids[a] > ids[b]);
  }

  private void swap(int a, int b) {
    float d = dist[a];
    dist[a] = dist[b];
    dist[b] = d;
    long t = ids[a];
    ids[a] = ids[b];
    ids[b] = t;
  }

  /** The kept pairs, nearest first. */
  Neighbors result() {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> dist[a] != dist[b] ? Float.compare(dist[a], dist[b]) : Long.compare(ids[a], ids[b]));
    long[] outIds = new long[size];
    float[] outDist = new float[size];
    for (int i = 0; i < size; i++) {
      outIds[i] = ids[order[i]];
      outDist[i] = dist[order[i]];
    }
    return new Neighbors(outIds, outDist);
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
