package dev.javelin.format.internal.v20;

import com.google.protobuf.Any;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import dev.javelin.format.proto.Encodings20;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Binary;
import dev.javelin.format.proto.Encodings20.Buffer;
import dev.javelin.format.proto.Encodings20.ColumnEncoding;
import dev.javelin.format.proto.Encodings20.Dictionary;
import dev.javelin.format.proto.Encodings20.FixedSizeList;
import dev.javelin.format.proto.Encodings20.Flat;
import dev.javelin.format.proto.Encodings20.Nullable;
import dev.javelin.format.proto.Encodings20.SimpleStruct;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;

/** Builders for the 2.0 encoding messages, in the shapes the Lance 2.0 writer produces. */
final class Proto20 {
  static final String ARRAY_ENCODING_URL = "/lance.encodings.ArrayEncoding";
  static final String COLUMN_ENCODING_URL = "/lance.encodings.ColumnEncoding";

  private Proto20() {}

  static ArrayEncoding flat(long bitsPerValue, int bufferIndex) {
    return ArrayEncoding.newBuilder()
        .setFlat(Flat.newBuilder()
            .setBitsPerValue(bitsPerValue)
            .setBuffer(Buffer.newBuilder().setBufferIndex(bufferIndex).setBufferType(Buffer.BufferType.page)))
        .build();
  }

  static ArrayEncoding noNulls(ArrayEncoding values) {
    return ArrayEncoding.newBuilder()
        .setNullable(Nullable.newBuilder().setNoNulls(Nullable.NoNull.newBuilder().setValues(values)))
        .build();
  }

  static ArrayEncoding someNulls(ArrayEncoding validity, ArrayEncoding values) {
    return ArrayEncoding.newBuilder()
        .setNullable(Nullable.newBuilder()
            .setSomeNulls(Nullable.SomeNull.newBuilder().setValidity(validity).setValues(values)))
        .build();
  }

  static ArrayEncoding allNulls() {
    return ArrayEncoding.newBuilder()
        .setNullable(Nullable.newBuilder().setAllNulls(Nullable.AllNull.getDefaultInstance()))
        .build();
  }

  static ArrayEncoding fixedSizeList(int dimension, ArrayEncoding items) {
    return ArrayEncoding.newBuilder()
        .setFixedSizeList(FixedSizeList.newBuilder().setDimension(dimension).setItems(items))
        .build();
  }

  static ArrayEncoding binary(ArrayEncoding indices, ArrayEncoding bytes, long nullAdjustment) {
    return ArrayEncoding.newBuilder()
        .setBinary(Binary.newBuilder().setIndices(indices).setBytes(bytes).setNullAdjustment(nullAdjustment))
        .build();
  }

  static ArrayEncoding dictionary(ArrayEncoding indices, ArrayEncoding items, int numItems) {
    return ArrayEncoding.newBuilder()
        .setDictionary(Dictionary.newBuilder()
            .setIndices(indices)
            .setItems(items)
            .setNumDictionaryItems(numItems))
        .build();
  }

  static ArrayEncoding list(ArrayEncoding offsets, long nullOffsetAdjustment, long numItems) {
    return ArrayEncoding.newBuilder()
        .setList(Encodings20.List.newBuilder()
            .setOffsets(offsets)
            .setNullOffsetAdjustment(nullOffsetAdjustment)
            .setNumItems(numItems))
        .build();
  }

  static ArrayEncoding simpleStruct() {
    return ArrayEncoding.newBuilder().setStruct(SimpleStruct.getDefaultInstance()).build();
  }

  /** A page or column encoding as Lance stores it: a direct {@code google.protobuf.Any}. */
  static Encoding direct(Message message, String typeUrl) {
    Any any = Any.newBuilder().setTypeUrl(typeUrl).setValue(message.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  /** The column encoding every 2.0 column carries: {@code ColumnEncoding{values: Empty}}. */
  static Encoding columnEncoding() {
    return direct(ColumnEncoding.newBuilder().setValues(Empty.getDefaultInstance()).build(), COLUMN_ENCODING_URL);
  }
}
