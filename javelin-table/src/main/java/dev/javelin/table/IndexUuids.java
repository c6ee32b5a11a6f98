package dev.javelin.table;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.UUID;

/** Index uuids: 16 big-endian bytes in {@code IndexMetadata.uuid}, the usual text form in paths. */
public final class IndexUuids {
  private IndexUuids() {}

  /** The 16 bytes Lance stores for a uuid in text form. */
  public static ByteString toBytes(String uuid) {
    UUID u = UUID.fromString(uuid);
    return ByteString.copyFrom(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits()).array());
  }

  /** The text form ({@code _indices/{uuid}/}) of 16 stored bytes. */
  public static String toText(ByteString bytes) {
    ByteBuffer b = bytes.asReadOnlyByteBuffer();
    return new UUID(b.getLong(), b.getLong()).toString();
  }
}
