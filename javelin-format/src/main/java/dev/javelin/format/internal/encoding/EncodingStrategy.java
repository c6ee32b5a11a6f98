package dev.javelin.format.internal.encoding;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.v20.V20Encoding;
import dev.javelin.format.internal.v21.V21Encoding;
import dev.javelin.format.schema.LanceField;

/** How one file version turns fields into columns and back. One implementation per version. */
public interface EncodingStrategy {
  /** The number of columns a field (with its descendants) occupies in this version. */
  int numColumns(LanceField field);

  /** An encoder for one top-level field. */
  FieldEncoder newEncoder(LanceField field, WriteOptions options);

  /**
   * A decoder for one top-level field, claiming its columns from the source in order. The
   * decoder reads column metadata eagerly, so a malformed page encoding fails here.
   */
  FieldDecoder newDecoder(LanceField field, ColumnSource source);

  static EncodingStrategy forVersion(LanceFileVersion version) {
    switch (version) {
      case V2_0:
        return V20Encoding.INSTANCE;
      case V2_1:
      case V2_2:
        return V21Encoding.INSTANCE;
      default:
        throw new IllegalArgumentException("No encoding strategy for " + version);
    }
  }
}
