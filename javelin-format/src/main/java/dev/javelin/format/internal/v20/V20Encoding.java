package dev.javelin.format.internal.v20;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.EncodingStrategy;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.FieldEncoder;
import dev.javelin.format.schema.LanceField;

/**
 * The Lance 2.0 file encodings (footer version 0.3).
 *
 * <p>Every field gets one column, in pre-order: a leaf or fixed-size list its values, a list its
 * offsets (then its item field's columns), a struct a header column (then its children's). Pages
 * are {@code /lance.encodings.ArrayEncoding} trees of Nullable, Flat, FixedSizeList, Binary,
 * Dictionary (for low-cardinality utf8 pages, as Lance does), List and SimpleStruct; string bytes
 * that Lance compressed with zstd or lz4 are read too.
 *
 * <p>What 2.0 cannot hold: struct validity (a null struct reads back as a struct of its children's
 * values, as with Lance) and the items of a null list (dropped on write).
 */
public final class V20Encoding implements EncodingStrategy {
  public static final V20Encoding INSTANCE = new V20Encoding();

  private V20Encoding() {}

  @Override
  public int numColumns(LanceField field) {
    if (Types20.isPacked(field)) {
      // Lance writes a packed struct as one column; Javelin can count it but not decode it.
      return 1;
    }
    int n = 1;
    for (LanceField c : field.children()) {
      n += numColumns(c);
    }
    return n;
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.javelin.format.exceptions.UnsupportedFormatException if the field's type has no 2.0 encoding
   *     in Javelin (maps, unions, packed structs, fixed-size lists of strings)
   */
  @Override
  public FieldEncoder newEncoder(LanceField field, WriteOptions options) {
    return new FieldEncoder20(NodeEncoder.create(field, options), numColumns(field));
  }

  @Override
  public FieldDecoder newDecoder(LanceField field, ColumnSource source) {
    return new FieldDecoder20(field, NodeDecoder.create(field, source, source.numRows()), source);
  }
}
