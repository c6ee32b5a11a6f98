package dev.javelin.format.v21;

import dev.javelin.format.encoding.ColumnSource;
import dev.javelin.format.encoding.EncodingStrategy;
import dev.javelin.format.encoding.FieldDecoder;
import dev.javelin.format.encoding.FieldEncoder;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.schema.LanceField;

/**
 * The Lance 2.1 ("structural") encodings. Only leaf fields get columns; structs and lists live in
 * each leaf's repetition and definition levels. Pages use the mini-block layout for values under
 * 256 bytes, full-zip for wider ones and all-null when no item is valid. Javelin writes values
 * uncompressed (Flat, Variable, FixedSizeList) with plain 16-bit levels, and reads the same plus
 * those layouts as Lance writes them.
 */
public final class V21Encoding implements EncodingStrategy {
  public static final V21Encoding INSTANCE = new V21Encoding();

  private V21Encoding() {}

  @Override
  public int numColumns(LanceField field) {
    return LeafPath.countLeaves(field);
  }

  @Override
  public FieldEncoder newEncoder(LanceField field, WriteOptions options) {
    return new V21FieldEncoder(LeafPath.leaves(field), options);
  }

  @Override
  public FieldDecoder newDecoder(LanceField field, ColumnSource source) {
    return new V21FieldDecoder(field, source);
  }
}
