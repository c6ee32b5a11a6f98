package dev.javelin.format.internal.v21;


/**
 * The values of a packed struct column: one container per child (fixed or variable width), all
 * holding the same number of values. Struct-level nulls live in the levels; the children of a
 * packed struct carry no validity of their own.
 */
final class PackedValues extends LeafValues {
  final LeafType type;
  final LeafValues[] children;
  private int count;

  PackedValues(LeafType type) {
    this.type = type;
    this.children = new LeafValues[type.children.length];
    for (int i = 0; i < children.length; i++) {
      children[i] = LeafValues.create(type.children[i]);
    }
  }

  @Override
  int count() {
    return count;
  }

  @Override
  long byteSize() {
    long s = 0;
    for (LeafValues c : children) {
      s += c.byteSize();
    }
    return s;
  }

  /** Records {@code n} more values whose children the caller has appended. */
  void addCount(int n) {
    count += n;
  }

  @Override
  void appendRange(LeafValues src, int from, int to) {
    PackedValues s = (PackedValues) src;
    for (int i = 0; i < children.length; i++) {
      children[i].appendRange(s.children[i], from, to);
    }
    count += to - from;
  }

  @Override
  void reset() {
    for (LeafValues c : children) {
      c.reset();
    }
    count = 0;
  }

  @Override
  void appendNulls(int n) {
    for (LeafValues c : children) {
      c.appendNulls(n);
    }
    count += n;
  }
}
