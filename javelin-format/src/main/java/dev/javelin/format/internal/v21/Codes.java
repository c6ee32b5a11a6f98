package dev.javelin.format.internal.v21;


/**
 * Canonical definition codes: a page-independent way to say why an entry is not a valid item.
 * Files store definition levels whose numbering depends on which layers of the page have nulls
 * or empty lists; Javelin converts them to these codes on read and back on write, so entries
 * from pages with different numberings can be mixed.
 *
 * <p>0 is a valid item; {@code 1 + 2 * layer} is a null at that layer; {@code 2 + 2 * layer} is
 * an empty list at that (list) layer. Layers count from the leaf (0) upward.
 */
final class Codes {
  private Codes() {}

  static int nullAt(int layer) {
    return 1 + 2 * layer;
  }

  static int emptyAt(int layer) {
    return 2 + 2 * layer;
  }

  static int layer(int code) {
    return (code - 1) >>> 1;
  }

  static boolean isNull(int code) {
    return code != 0 && (code & 1) == 1;
  }

  static boolean isEmpty(int code) {
    return code != 0 && (code & 1) == 0;
  }
}
