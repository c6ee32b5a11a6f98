package dev.javelin.format.internal.v21;

import dev.javelin.format.schema.LanceField;

/** Per-field switches for 2.1 compression, read from field metadata as Lance reads them. */
final class PageCompression {
  /** Lance's field metadata key for a field's compression scheme. */
  static final String COMPRESSION_KEY = "lance-encoding:compression";

  private PageCompression() {}

  /**
   * Whether the leaf or a field above it asks for no compression
   * ({@code lance-encoding:compression=none}).
   */
  static boolean optedOut(LeafPath path) {
    for (LanceField f : path.fields) {
      String v = f.metadata().get(COMPRESSION_KEY);
      if (v != null && v.trim().equalsIgnoreCase("none")) {
        return true;
      }
    }
    return false;
  }
}
