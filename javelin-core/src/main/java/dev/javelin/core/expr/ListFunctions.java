package dev.javelin.core.expr;

/** array_has, array_has_any / array_has_all, array_length and element access over list columns. */
final class ListFunctions {
  private ListFunctions() {}

  /** array_has(list, x): NULL for a NULL list or x; otherwise whether a non-null element equals x. */
  static Values has(Values list, Values x, int n) {
    Values out = new Values(Kind.BOOL, n);
    out.nulls = Values.orNulls(list.nulls, x.nulls);
    boolean[] r = new boolean[n];
    Values items = list.items;
    for (int i = 0; i < n; i++) {
      if (out.isNull(i)) {
        continue;
      }
      for (int k = list.offsets[i]; k < list.offsets[i + 1]; k++) {
        if (!items.isNull(k) && Values.same(items, k, x, i)) {
          r[i] = true;
          break;
        }
      }
    }
    out.bools = r;
    return out;
  }

  /**
   * array_has_any / array_has_all(list, needles): whether any (all) of the needles is in the list,
   * where NULL equals NULL. With no needles: FALSE (any) or TRUE (all) whatever the list, as in
   * Lance; otherwise NULL for a NULL list or needle list.
   */
  static Values hasAnyOrAll(Values list, Values needles, int n, boolean all) {
    Values out = new Values(Kind.BOOL, n);
    boolean[] nulls = new boolean[n];
    boolean[] r = new boolean[n];
    for (int i = 0; i < n; i++) {
      if (needles.isNull(i)) {
        nulls[i] = true;
        continue;
      }
      if (needles.offsets[i] == needles.offsets[i + 1]) {
        r[i] = all;
        continue;
      }
      if (list.isNull(i)) {
        nulls[i] = true;
        continue;
      }
      boolean result = all;
      for (int j = needles.offsets[i]; j < needles.offsets[i + 1]; j++) {
        boolean found = false;
        for (int k = list.offsets[i]; k < list.offsets[i + 1] && !found; k++) {
          boolean kn = list.items.isNull(k);
          boolean jn = needles.items.isNull(j);
          found = kn || jn ? kn && jn : Values.same(list.items, k, needles.items, j);
        }
        if (found != all) {
          result = found;
          break;
        }
      }
      r[i] = result;
    }
    out.bools = r;
    out.nulls = nulls;
    return out;
  }

  /** array_length(list [, 1]) / cardinality(list): the element count, NULL for a NULL list. */
  static Values length(Values[] a, int n) {
    Values list = a[0];
    Values out = new Values(Kind.LONG, n);
    out.nulls = Values.orNulls(list.nulls, a.length > 1 ? a[1].nulls : null);
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      if (a.length > 1 && !out.isNull(i) && a[1].longs[i] != 1) {
        out.nulls = out.nulls == null ? new boolean[n] : out.nulls;
        out.nulls[i] = true; // a flat list has one dimension
      }
      r[i] = list.offsets[i + 1] - list.offsets[i];
    }
    out.longs = r;
    return out;
  }

  /** list[k]: 1-based, negative counts from the end; NULL out of range or for a NULL list or index. */
  static Values element(Values list, Values index, int n) {
    int[] rows = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = -1;
      if (list.isNull(i) || index.isNull(i)) {
        continue;
      }
      long k = index.longs[i];
      int size = list.offsets[i + 1] - list.offsets[i];
      long at = k > 0 ? k - 1 : k < 0 ? size + k : -1;
      if (at >= 0 && at < size) {
        rows[i] = list.offsets[i] + (int) at;
      }
    }
    return list.items.gather(rows);
  }

  /** [a, b, ...]: every row the same number of items, one from each argument. */
  static Values array(Kind elem, Values[] a, int n) {
    int m = a.length;
    Values out = new Values(Kind.LIST, n);
    out.offsets = new int[n + 1];
    for (int i = 0; i < n; i++) {
      out.offsets[i + 1] = (i + 1) * m;
    }
    if (m == 0) {
      out.items = new Values(elem, 0);
      return out;
    }
    // Item p = i * m + j is row i of argument j: spread each argument over the item positions,
    // then take position p from argument p % m.
    Values[] spread = new Values[m];
    int[] which = new int[n * m];
    for (int j = 0; j < m; j++) {
      int[] rows = new int[n * m];
      for (int p = 0; p < n * m; p++) {
        rows[p] = p % m == j ? p / m : -1;
      }
      spread[j] = a[j].gather(rows);
    }
    for (int p = 0; p < n * m; p++) {
      which[p] = p % m;
    }
    out.items = Conditionals.pick(elem, n * m, spread, which);
    return out;
  }
}
