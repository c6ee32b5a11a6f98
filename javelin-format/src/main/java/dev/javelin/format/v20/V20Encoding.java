package dev.javelin.format.v20;

import dev.javelin.format.UnsupportedFormatException;
import dev.javelin.format.encoding.ColumnSource;
import dev.javelin.format.encoding.EncodingStrategy;
import dev.javelin.format.encoding.FieldDecoder;
import dev.javelin.format.encoding.FieldEncoder;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.schema.LanceField;

/** The Lance 2.0 encodings. */
public final class V20Encoding implements EncodingStrategy {
  public static final V20Encoding INSTANCE = new V20Encoding();

  private V20Encoding() {}

  @Override
  public int numColumns(LanceField field) {
    throw new UnsupportedFormatException(null, "not built yet");
  }

  @Override
  public FieldEncoder newEncoder(LanceField field, WriteOptions options) {
    throw new UnsupportedFormatException(null, "not built yet");
  }

  @Override
  public FieldDecoder newDecoder(LanceField field, ColumnSource source) {
    throw new UnsupportedFormatException(null, "not built yet");
  }
}
