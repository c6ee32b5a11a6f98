package dev.javelin.core.expr;

import java.util.Arrays;

/** A set of byte strings with open addressing; lookups take a slice of a larger array, no copy. */
final class BytesHashSet {
  private byte[][] slots;
  private int[] hashes;
  private int mask;
  private int size;

  BytesHashSet(int expected) {
    int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    slots = new byte[cap][];
    hashes = new int[cap];
    mask = cap - 1;
  }

  void add(byte[] b, int from, int length) {
    if ((size + 1) * 2 > slots.length) {
      grow();
    }
    int h = hash(b, from, length);
    int i = h & mask;
    while (slots[i] != null) {
      if (hashes[i] == h && equal(slots[i], b, from, length)) {
        return;
      }
      i = (i + 1) & mask;
    }
    slots[i] = Arrays.copyOfRange(b, from, from + length);
    hashes[i] = h;
    size++;
  }

  boolean contains(byte[] b, int from, int length) {
    int h = hash(b, from, length);
    int i = h & mask;
    while (slots[i] != null) {
      if (hashes[i] == h && equal(slots[i], b, from, length)) {
        return true;
      }
      i = (i + 1) & mask;
    }
    return false;
  }

  private static boolean equal(byte[] key, byte[] b, int from, int length) {
    return key.length == length && Arrays.equals(key, 0, length, b, from, from + length);
  }

  private static int hash(byte[] b, int from, int length) {
    int h = 1;
    for (int i = from; i < from + length; i++) {
      h = 31 * h + b[i];
    }
    return h ^ (h >>> 16);
  }

  private void grow() {
    byte[][] old = slots;
    slots = new byte[old.length * 2][];
    hashes = new int[slots.length];
    mask = slots.length - 1;
    size = 0;
    for (byte[] k : old) {
      if (k != null) {
        add(k, 0, k.length);
      }
    }
  }
}
