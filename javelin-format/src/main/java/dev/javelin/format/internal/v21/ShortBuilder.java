package dev.javelin.format.internal.v21;

import java.util.Arrays;

/** A growable array of unsigned 16-bit values (repetition levels and definition codes). */
final class ShortBuilder {
  private short[] data;
  private int size;

  ShortBuilder() {
    this(64);
  }

  ShortBuilder(int capacity) {
    this.data = new short[Math.max(16, capacity)];
  }

  int size() {
    return size;
  }

  short[] array() {
    return data;
  }

  int get(int i) {
    return data[i] & 0xFFFF;
  }

  /** Empties the builder, keeping its array for the next use. */
  void reset() {
    size = 0;
  }

  /** Makes room for {@code extra} more values (a sizing hint from the writer). */
  void reserve(long extra) {
    ensureRoom((int) Math.min(extra, Integer.MAX_VALUE / 4));
  }

  private void ensureRoom(int extra) {
    long need = (long) size + extra;
    if (need > data.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("Too many levels");
      }
      data = Arrays.copyOf(data, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16L, data.length * 2L)));
    }
  }

  void add(int v) {
    ensureRoom(1);
    data[size++] = (short) v;
  }

  void addRepeated(int v, int n) {
    ensureRoom(n);
    Arrays.fill(data, size, size + n, (short) v);
    size += n;
  }

  void addAll(short[] src, int from, int to) {
    ensureRoom(to - from);
    System.arraycopy(src, from, data, size, to - from);
    size += to - from;
  }
}
