package dev.javelin.format.v21;

import dev.javelin.format.UnsupportedFormatException;
import dev.javelin.format.encoding.ColumnSource;
import dev.javelin.format.encoding.EncodingStrategy;
import dev.javelin.format.encoding.FieldDecoder;
import dev.javelin.format.encoding.FieldEncoder;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.schema.LanceField;

/** The Lance 2.1 encodings. */
public final class V21Encoding implements EncodingStrategy {
  public static final V21Encoding INSTANCE = new V21Encoding();

  private V21Encoding() {}

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
