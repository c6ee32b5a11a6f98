package dev.javelin.compat;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Lance 2.x file's bytes with its footer and offset tables decoded, by code independent of
 * Javelin's container reader, so tests can aim corruption at a region (data pages, metadata, the
 * footer) and inspect lance-core's files without trusting the code under test.
 */
final class RawFile {
  static final int FOOTER = 40;

  final byte[] bytes;
  final long columnMetadataStart;
  final long cmoTableStart;
  final long gboTableStart;
  final int numGlobalBuffers;
  final int numColumns;
  final int major;
  final int minor;

  RawFile(byte[] bytes) {
    if (bytes.length < FOOTER) {
      throw new IllegalArgumentException("Not a Lance file: " + bytes.length + " bytes");
    }
    this.bytes = bytes;
    ByteBuffer b = buffer();
    int f = bytes.length - FOOTER;
    this.columnMetadataStart = b.getLong(f);
    this.cmoTableStart = b.getLong(f + 8);
    this.gboTableStart = b.getLong(f + 16);
    this.numGlobalBuffers = b.getInt(f + 24);
    this.numColumns = b.getInt(f + 28);
    this.major = Short.toUnsignedInt(b.getShort(f + 32));
    this.minor = Short.toUnsignedInt(b.getShort(f + 34));
  }

  private ByteBuffer buffer() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** (position, size) of a global buffer. */
  long[] globalBuffer(int i) {
    ByteBuffer b = buffer();
    int at = Math.toIntExact(gboTableStart + 16L * i);
    return new long[] {b.getLong(at), b.getLong(at + 8)};
  }

  /** (position, size) of a column's metadata. */
  long[] columnMetadataRange(int i) {
    ByteBuffer b = buffer();
    int at = Math.toIntExact(cmoTableStart + 16L * i);
    return new long[] {b.getLong(at), b.getLong(at + 8)};
  }

  List<ColumnMetadata> columns() {
    List<ColumnMetadata> out = new ArrayList<>();
    for (int i = 0; i < numColumns; i++) {
      long[] r = columnMetadataRange(i);
      try {
        out.add(ColumnMetadata.parseFrom(
            Arrays.copyOfRange(bytes, Math.toIntExact(r[0]), Math.toIntExact(r[0] + r[1]))));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalArgumentException("Column " + i + " metadata is not valid", e);
      }
    }
    return out;
  }

  /**
   * Where the metadata starts: the first of global buffer 0 (the schema), the column metadata
   * and the tables. Everything before it is data pages and padding.
   */
  long metadataStart() {
    long start = Math.min(columnMetadataStart, Math.min(cmoTableStart, gboTableStart));
    if (numGlobalBuffers > 0) {
      start = Math.min(start, globalBuffer(0)[0]);
    }
    return start;
  }

  /** Where the 40-byte footer starts. */
  long footerStart() {
    return bytes.length - FOOTER;
  }

  /** The file with the footer's version fields replaced. */
  byte[] withVersion(int newMajor, int newMinor) {
    byte[] out = bytes.clone();
    ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(out.length - FOOTER + 32, (short) newMajor);
    b.putShort(out.length - FOOTER + 34, (short) newMinor);
    return out;
  }
}
