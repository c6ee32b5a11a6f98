package dev.javelin.format.internal.v21;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.EncodingStrategy;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.FieldEncoder;
import dev.javelin.format.schema.LanceField;
import java.util.List;

/**
 * The Lance 2.1 ("structural") encodings, also used for format 2.2 (see {@link PageEncoder} for
 * what 2.2 changes). Only leaf fields get columns; structs and lists live in
 * each leaf's repetition and definition levels. Pages use the mini-block layout for values under
 * 256 bytes, full-zip for wider ones and all-null when no item is valid. Packed structs take one
 * column for the whole struct. The reader decodes every layout and compressive encoding
 * lance-core 7.0.0 writes (see {@link Decompressors}); Javelin does not write packed structs.
 * The writer compresses pages as lance-core does by default (see {@link PageEncoder}) unless
 * {@link WriteOptions#compression()} is off or a field asks for {@code lance-encoding:compression=none}.
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
    if (options.version() != LanceFileVersion.V2_1 && options.version() != LanceFileVersion.V2_2) {
      throw new IllegalArgumentException("The structural encodings write formats 2.1 and 2.2, not " + options.version());
    }
    List<LeafPath> leaves = LeafPath.leaves(field);
    for (LeafPath p : leaves) {
      if (p.type.kind == LeafType.Kind.PACKED) {
        throw new UnsupportedFormatException(null, "Javelin does not write packed structs (field '" + p.name()
            + "'); drop the 'packed' field metadata to store its children as columns");
      }
    }
    return new V21FieldEncoder(leaves, options);
  }

  @Override
  public FieldDecoder newDecoder(LanceField field, ColumnSource source) {
    return new V21FieldDecoder(field, source);
  }
}
