package dev.javelin.core.expr;

/** A set of longs with open addressing: no boxing, one probe sequence per lookup. */
final class LongHashSet {
  private static final long EMPTY = 0L;

  private long[] slots;
  private int mask;
  private int size;
  // 0 marks an empty slot, so whether 0 itself is in the set is kept apart.
  private boolean hasZero;

  LongHashSet(int expected) {
    int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    slots = new long[cap];
    mask = cap - 1;
  }

  void add(long v) {
    if (v == EMPTY) {
      hasZero = true;
      return;
    }
    if ((size + 1) * 2 > slots.length) {
      grow();
    }
    int i = slot(v);
    while (slots[i] != EMPTY) {
      if (slots[i] == v) {
        return;
      }
      i = (i + 1) & mask;
    }
    slots[i] = v;
    size++;
  }

  boolean contains(long v) {
    if (v == EMPTY) {
      return hasZero;
    }
    int i = slot(v);
    while (true) {
      long s = slots[i];
      if (s == v) {
        return true;
      }
      if (s == EMPTY) {
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  private int slot(long v) {
    long h = v * 0x9E3779B97F4A7C15L; // Fibonacci hashing spreads sequential keys
    return (int) (h ^ (h >>> 32)) & mask;
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    mask = slots.length - 1;
    size = 0;
    for (long v : old) {
      if (v != EMPTY) {
        add(v);
      }
    }
  }
}
