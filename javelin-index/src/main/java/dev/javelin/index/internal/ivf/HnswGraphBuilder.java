package dev.javelin.index.internal.ivf;

import java.util.Arrays;
import java.util.Random;

/**
 * Builds one partition's HNSW graph as Lance does: node 0 is the entry point on every level,
 * every other node gets a random level ({@code -ln(U) / ln(m)}, capped), and is inserted in order:
 * a greedy descent through the levels above its own, then on each of its levels a search
 * {@code efConstruction} wide whose results become its neighbours, pruned by Lance's heuristic
 * (a candidate is kept when nearer the node than every neighbour kept so far) to {@code 2m} on
 * level 0 and {@code m} above; each neighbour links back when the node is nearer than its
 * furthest neighbour (or it has room), and is pruned the same way.
 */
final class HnswGraphBuilder {
  /** Distances between the partition's nodes. */
  interface Distance {
    float between(int a, int b);
  }

  final int n;
  final int maxLevel;
  private final int m;
  private final int efConstruction;
  private final Distance distance;
  // The highest level of each node (0 .. maxLevel - 1).
  final int[] level;
  // Per node and level: neighbours (ids and distances), nearest first; count in size.
  final int[][][] ids;
  final float[][][] dists;
  final int[][] size;
  private final int[] visited;
  private int stamp;
  private final IvfHnswSqIndex.LongHeap candidates = new IvfHnswSqIndex.LongHeap();
  private final IvfHnswSqIndex.LongHeap results = new IvfHnswSqIndex.LongHeap();

  HnswGraphBuilder(int n, int maxLevel, int m, int efConstruction, Distance distance, Random random) {
    this.n = n;
    this.maxLevel = maxLevel;
    this.m = m;
    this.efConstruction = efConstruction;
    this.distance = distance;
    this.level = new int[n];
    this.ids = new int[n][][];
    this.dists = new float[n][][];
    this.size = new int[n][];
    this.visited = new int[n];
    double ml = 1.0 / Math.log(m);
    for (int v = 0; v < n; v++) {
      level[v] = v == 0 ? maxLevel - 1 : (int) Math.min(-Math.log(1.0 - random.nextDouble()) * ml, maxLevel - 1);
      ids[v] = new int[level[v] + 1][];
      dists[v] = new float[level[v] + 1][];
      size[v] = new int[level[v] + 1];
      for (int l = 0; l <= level[v]; l++) {
        int cap = (l == 0 ? 2 * m : m) + 1;
        ids[v][l] = new int[cap];
        dists[v][l] = new float[cap];
      }
    }
  }

  /** Inserts every node. */
  HnswGraphBuilder build() {
    for (int v = 1; v < n; v++) {
      insert(v);
    }
    return this;
  }

  private void insert(int v) {
    int ep = 0;
    float epd = distance.between(v, 0);
    for (int l = maxLevel - 1; l > level[v]; l--) {
      boolean moved = true;
      while (moved) {
        moved = false;
        if (level[ep] < l) {
          break;
        }
        for (int j = 0; j < size[ep][l]; j++) {
          int u = ids[ep][l][j];
          float d = distance.between(v, u);
          if (d < epd) {
            epd = d;
            ep = u;
            moved = true;
          }
        }
      }
    }
    for (int l = level[v]; l >= 0; l--) {
      long[] found = searchLevel(v, ep, epd, l);
      int mMax = l == 0 ? 2 * m : m;
      // The node's neighbours: the search's results, pruned.
      int kept = select(found, found.length, mMax);
      for (int i = 0; i < kept; i++) {
        ids[v][l][i] = NearestRows.row(found[i]);
        dists[v][l][i] = NearestRows.distance(found[i]);
      }
      size[v][l] = kept;
      for (int i = 0; i < kept; i++) {
        link(NearestRows.row(found[i]), v, NearestRows.distance(found[i]), l, mMax);
      }
      ep = NearestRows.row(found[0]);
      epd = NearestRows.distance(found[0]);
    }
  }

  // Adds v to u's neighbours on level l when it is nearer than u's furthest or u has room; prunes.
  private void link(int u, int v, float d, int l, int mMax) {
    int s = size[u][l];
    if (s >= mMax && d >= dists[u][l][s - 1]) {
      return;
    }
    // Insert in distance order (the array has room for one more than mMax).
    int at = s;
    while (at > 0 && dists[u][l][at - 1] > d) {
      ids[u][l][at] = ids[u][l][at - 1];
      dists[u][l][at] = dists[u][l][at - 1];
      at--;
    }
    ids[u][l][at] = v;
    dists[u][l][at] = d;
    s++;
    if (s > mMax) {
      long[] keys = new long[s];
      for (int i = 0; i < s; i++) {
        keys[i] = NearestRows.key(dists[u][l][i], ids[u][l][i]);
      }
      s = select(keys, s, mMax);
      for (int i = 0; i < s; i++) {
        ids[u][l][i] = NearestRows.row(keys[i]);
        dists[u][l][i] = NearestRows.distance(keys[i]);
      }
    }
    size[u][l] = s;
  }

  /**
   * Lance's neighbour heuristic on {@code count} candidates (keys, sorted here): all when there
   * are at most {@code k}, else, nearest first, each that is nearer the node than every one kept
   * so far, up to {@code k}. The kept ones are moved to the front; returns how many.
   */
  private int select(long[] keys, int count, int k) {
    Arrays.sort(keys, 0, count);
    if (count <= k) {
      return count;
    }
    int kept = 0;
    for (int i = 0; i < count && kept < k; i++) {
      int u = NearestRows.row(keys[i]);
      float du = NearestRows.distance(keys[i]);
      boolean keep = true;
      for (int j = 0; j < kept && keep; j++) {
        keep = du < distance.between(u, NearestRows.row(keys[j]));
      }
      if (keep) {
        keys[kept++] = keys[i];
      }
    }
    return kept;
  }

  // The efConstruction nearest nodes to v on level l from ep, nearest first (as keys).
  private long[] searchLevel(int v, int ep, float epd, int l) {
    if (++stamp == Integer.MAX_VALUE) {
      Arrays.fill(visited, 0);
      stamp = 1;
    }
    candidates.reset();
    results.reset();
    visited[ep] = stamp;
    visited[v] = stamp;
    candidates.push(NearestRows.key(epd, ep));
    results.push(-NearestRows.key(epd, ep));
    while (candidates.size() > 0) {
      long c = candidates.pop();
      float furthest = NearestRows.distance(-results.peek());
      if (NearestRows.distance(c) > furthest && results.size() == efConstruction) {
        break;
      }
      int node = NearestRows.row(c);
      if (level[node] < l) {
        continue;
      }
      for (int j = 0; j < size[node][l]; j++) {
        int u = ids[node][l][j];
        if (visited[u] == stamp) {
          continue;
        }
        visited[u] = stamp;
        float d = distance.between(v, u);
        if (d <= furthest || results.size() < efConstruction) {
          long key = NearestRows.key(d, u);
          if (results.size() < efConstruction) {
            results.push(-key);
          } else if (d < NearestRows.distance(-results.peek())) {
            results.pop();
            results.push(-key);
          }
          candidates.push(key);
        }
      }
    }
    long[] out = new long[results.size()];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = -results.pop();
    }
    return out;
  }
}
