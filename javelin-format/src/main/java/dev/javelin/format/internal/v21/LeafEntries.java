package dev.javelin.format.internal.v21;


/**
 * The entries of one leaf column for a run of rows: per entry a repetition level (when the leaf
 * is under a list) and a canonical definition code (see {@link Codes}), plus one value per
 * visible entry. The writer fills one per page; the reader fills one per request.
 */
final class LeafEntries {
  final LeafPath path;
  /** Repetition levels, or null when the leaf is under no list. */
  final ShortBuilder rep;
  /** Definition codes, or null while every entry so far is a valid item. */
  private ShortBuilder codes;
  final LeafValues values;
  private int size;
  long rows;

  LeafEntries(LeafPath path) {
    this.path = path;
    this.rep = path.maxRep > 0 ? new ShortBuilder() : null;
    this.values = LeafValues.create(path.type);
  }

  /** Empties the entries, keeping their buffers for the next request. */
  void reset() {
    if (rep != null) {
      rep.reset();
    }
    codes = null;
    values.reset();
    size = 0;
    rows = 0;
  }

  int size() {
    return size;
  }

  /**
   * Makes room for about {@code moreRows} more rows like the ones held (at least one), a hint from
   * a writer that knows how many rows a page will get.
   */
  void reserveRows(long moreRows) {
    if (rows <= 0 || moreRows <= 0) {
      return;
    }
    values.reserveValues((long) ((double) values.count() / rows * moreRows));
    if (rep != null) {
      rep.reserve((long) ((double) size / rows * moreRows));
    }
  }

  boolean hasCodes() {
    return codes != null;
  }

  int code(int i) {
    return codes == null ? 0 : codes.get(i);
  }

  int rep(int i) {
    return rep.get(i);
  }

  short[] codeArray() {
    return codes == null ? null : codes.array();
  }

  /** Adds {@code n} entries with the same code; the caller adds their repetition levels. */
  void addCodes(int code, int n) {
    if (n <= 0) {
      return;
    }
    if (code != 0 && codes == null) {
      codes = new ShortBuilder(Math.max(64, size + n));
      codes.addRepeated(0, size);
    }
    if (codes != null) {
      codes.addRepeated(code, n);
    }
    size += n;
  }

  /** Adds one entry. */
  void add(int repLevel, int code) {
    if (rep != null) {
      rep.add(repLevel);
    }
    addCodes(code, 1);
  }

  /** Bytes held, for page sizing. */
  long byteSize() {
    long s = values.byteSize();
    if (rep != null) {
      s += 2L * size;
    }
    if (codes != null) {
      s += 2L * size;
    }
    return s;
  }

  /** Whether an entry holds a value slot (a valid item or a null one inside the innermost list). */
  boolean visible(int i) {
    return codes == null || path.depthTable()[codes.get(i)] == 0;
  }

  /**
   * Adds entries [from, to) of decoded levels: repetition levels (null when the leaf is under no
   * list) and canonical codes (null when all are valid items).
   */
  void addLevels(short[] repLevels, short[] codeLevels, int from, int to) {
    if (to <= from) {
      return;
    }
    if (rep != null) {
      rep.addAll(repLevels, from, to);
    }
    if (codeLevels == null) {
      addCodes(0, to - from);
      return;
    }
    int i = from;
    while (i < to) {
      int c = codeLevels[i];
      int j = i + 1;
      while (j < to && codeLevels[j] == c) {
        j++;
      }
      addCodes(c, j - i);
      i = j;
    }
  }
}
