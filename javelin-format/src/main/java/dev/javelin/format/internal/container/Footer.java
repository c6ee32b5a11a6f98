package dev.javelin.format.internal.container;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.CorruptFileException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The 40-byte footer that ends every Lance 2.x file. */
public final class Footer {
  public static final int SIZE = 40;
  public static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);

  final long columnMetadataStart;
  final long cmoTableStart;
  final long gboTableStart;
  final int numGlobalBuffers;
  final int numColumns;
  final int major;
  final int minor;

  Footer(long columnMetadataStart, long cmoTableStart, long gboTableStart, int numGlobalBuffers,
      int numColumns, int major, int minor) {
    this.columnMetadataStart = columnMetadataStart;
    this.cmoTableStart = cmoTableStart;
    this.gboTableStart = gboTableStart;
    this.numGlobalBuffers = numGlobalBuffers;
    this.numColumns = numColumns;
    this.major = major;
    this.minor = minor;
  }

  static byte[] encode(long columnMetadataStart, long cmoTableStart, long gboTableStart,
      int numGlobalBuffers, int numColumns, LanceFileVersion version) {
    ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(columnMetadataStart).putLong(cmoTableStart).putLong(gboTableStart);
    b.putInt(numGlobalBuffers).putInt(numColumns);
    b.putShort((short) version.footerMajor()).putShort((short) version.footerMinor());
    b.put(MAGIC);
    return b.array();
  }

  /**
   * Parses and checks a footer: the magic, and that every table lies inside the file.
   *
   * @param tail the last 40 bytes of the file
   */
  static Footer decode(String location, ByteBuffer tail, long fileLength) {
    ByteBuffer b = tail.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[4];
    b.position(SIZE - 4);
    b.get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new CorruptFileException(location, "Not a Lance file (no LANC magic at the end)");
    }
    b.position(0);
    long colMeta = b.getLong();
    long cmo = b.getLong();
    long gbo = b.getLong();
    long nGb = Integer.toUnsignedLong(b.getInt());
    long nCols = Integer.toUnsignedLong(b.getInt());
    int major = Short.toUnsignedInt(b.getShort());
    int minor = Short.toUnsignedInt(b.getShort());
    long end = fileLength - SIZE;
    if (colMeta < 0 || cmo < 0 || gbo < 0 || colMeta > end || cmo > end || gbo > end) {
      throw new CorruptFileException(location, "Footer offsets point past the end of the file");
    }
    if (cmo + nCols * 16 > end || gbo + nGb * 16 > end) {
      throw new CorruptFileException(location,
          "Footer tables (" + nCols + " columns, " + nGb + " global buffers) pass the end of the file");
    }
    if (nGb < 1) {
      throw new CorruptFileException(location, "File has no global buffer 0 (the schema)");
    }
    return new Footer(colMeta, cmo, gbo, (int) nGb, (int) nCols, major, minor);
  }
}
