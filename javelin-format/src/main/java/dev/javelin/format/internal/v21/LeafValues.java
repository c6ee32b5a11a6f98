package dev.javelin.format.internal.v21;


/**
 * The values of one leaf column, in order, one per visible item (null items included, holding
 * placeholder bytes). Writers fill it from Arrow vectors; readers fill it from decoded chunks.
 */
abstract class LeafValues {
  /** Number of values. */
  abstract int count();

  /** Bytes held, for page sizing. */
  abstract long byteSize();

  /** Appends values [from, to) of a container of the same layout. */
  abstract void appendRange(LeafValues src, int from, int to);

  /** Appends placeholder values for null items. */
  abstract void appendNulls(int n);

  /**
   * Makes room for about {@code bytes} more bytes of values, so a writer filling a page of known
   * size does not regrow (and copy) its buffers many times; a hint, which may do nothing.
   */
  void reserveBytes(long bytes) {}

  /** Makes room for about {@code n} more values besides their bytes (offsets); a hint, like {@link #reserveBytes}. */
  void reserveValues(long n) {}

  /** Empties the container, keeping its buffers so a reader can refill it without regrowing them. */
  abstract void reset();

  static LeafValues create(LeafType type) {
    switch (type.kind) {
      case FIXED:
        return new FixedValues(type.bitsPerItem);
      case VARIABLE:
        return new VarValues(type.offsetBytes);
      case PACKED:
        return new PackedValues(type);
      default:
        return new FslValues(type);
    }
  }
}
