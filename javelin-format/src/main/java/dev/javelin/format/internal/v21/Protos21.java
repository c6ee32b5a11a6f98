package dev.javelin.format.internal.v21;

import com.google.protobuf.Any;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import dev.javelin.format.proto.Encodings20.ColumnEncoding;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.FixedSizeList;
import dev.javelin.format.proto.Encodings21.Flat;
import dev.javelin.format.proto.Encodings21.Variable;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;
import java.util.Locale;

/** Builders for the 2.1 protobuf messages Javelin writes. */
final class Protos21 {
  static final String PAGE_LAYOUT_URL = "/lance.encodings21.PageLayout";
  static final String COLUMN_ENCODING_URL = "/lance.encodings.ColumnEncoding";

  private Protos21() {}

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding variable(int offsetBits) {
    return CompressiveEncoding.newBuilder()
        .setVariable(Variable.newBuilder().setOffsets(flat(offsetBits)))
        .build();
  }

  static CompressiveEncoding fsl(long dim, boolean hasValidity, CompressiveEncoding inner) {
    return CompressiveEncoding.newBuilder()
        .setFixedSizeList(FixedSizeList.newBuilder().setItemsPerValue(dim).setHasValidity(hasValidity).setValues(inner))
        .build();
  }

  static Encoding direct(Message m, String typeUrl) {
    Any any = Any.newBuilder().setTypeUrl(typeUrl).setValue(m.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  static Encoding columnEncoding() {
    return direct(ColumnEncoding.newBuilder().setValues(Empty.getDefaultInstance()).build(), COLUMN_ENCODING_URL);
  }

  /** A readable name for the kind of a compressive encoding, for error messages. */
  static String name(CompressiveEncoding e) {
    return e.getCompressionCase().name().toLowerCase(Locale.ROOT);
  }
}
