package dev.javelin.format.internal.container;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.internal.encoding.EncodingStrategy;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.InputFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/** Everything in a file but its data: version, schema, row count, column metadata. */
public final class FileMetadata {
  private final LanceFileVersion version;
  private final LanceSchema schema;
  private final long numRows;
  private final List<ColumnMetadata> columns;
  private final long[][] globalBuffers;

  private FileMetadata(LanceFileVersion version, LanceSchema schema, long numRows,
      List<ColumnMetadata> columns, long[][] globalBuffers) {
    this.version = version;
    this.schema = schema;
    this.numRows = numRows;
    this.columns = columns;
    this.globalBuffers = globalBuffers;
  }

  public LanceFileVersion version() {
    return version;
  }

  public LanceSchema schema() {
    return schema;
  }

  public long numRows() {
    return numRows;
  }

  public List<ColumnMetadata> columns() {
    return columns;
  }

  /** The number of global buffers, the schema (buffer 0) included. */
  public int numGlobalBuffers() {
    return globalBuffers.length;
  }

  /** The (position, size) of a global buffer. */
  public long[] globalBuffer(int index) {
    return globalBuffers[index].clone();
  }

  /**
   * Reads and checks the metadata of a file.
   *
   * @throws CorruptFileException if the file is truncated or its metadata is malformed
   * @throws dev.javelin.format.exceptions.UnsupportedFormatException if the version is not 2.0, 2.1 or 2.2
   */
  public static FileMetadata read(InputFile file) throws IOException {
    String loc = file.location();
    try {
      long length = file.length();
      if (length < Footer.SIZE) {
        throw new CorruptFileException(loc, "File is too small to be a Lance file (" + length + " bytes)");
      }
      // One speculative read of the file's last block (as Lance reads a file's tail): the footer,
      // and for most files the tables, column metadata and schema before it, so that opening a
      // file on an object store costs one request instead of three or four.
      int tailLen = (int) Math.min(length, Math.max(Footer.SIZE, file.blockSize()));
      long tailStart = length - tailLen;
      ByteBuffer tail = file.read(tailStart, tailLen).order(ByteOrder.LITTLE_ENDIAN);
      Footer footer = Footer.decode(loc, slice(tail, tailLen - Footer.SIZE, Footer.SIZE), length);
      LanceFileVersion version = LanceFileVersion.fromFooter(loc, footer.major, footer.minor);

      // The tables and column metadata sit together before the footer; one read gets them.
      long metaStart = Math.min(footer.columnMetadataStart, Math.min(footer.cmoTableStart, footer.gboTableStart));
      long metaLen = length - Footer.SIZE - metaStart;
      if (metaLen > Integer.MAX_VALUE - 64) {
        throw new CorruptFileException(loc, "Metadata region of " + metaLen + " bytes is too large");
      }
      ByteBuffer meta = metaStart >= tailStart && metaLen >= 0
          ? slice(tail, (int) (metaStart - tailStart), (int) metaLen)
          : file.read(metaStart, (int) metaLen).order(ByteOrder.LITTLE_ENDIAN);

      long[][] gbs = new long[footer.numGlobalBuffers][];
      for (int i = 0; i < footer.numGlobalBuffers; i++) {
        int at = (int) (footer.gboTableStart - metaStart) + i * 16;
        gbs[i] = new long[] {meta.getLong(at), meta.getLong(at + 8)};
        checkRange(loc, "global buffer " + i, gbs[i][0], gbs[i][1], length);
      }

      List<ColumnMetadata> columns = new ArrayList<>(footer.numColumns);
      for (int i = 0; i < footer.numColumns; i++) {
        int at = (int) (footer.cmoTableStart - metaStart) + i * 16;
        long pos = meta.getLong(at);
        long size = meta.getLong(at + 8);
        checkRange(loc, "metadata of column " + i, pos, size, length);
        ByteBuffer bytes = pos >= metaStart
            ? slice(meta, (int) (pos - metaStart), (int) size)
            : pos >= tailStart ? slice(tail, (int) (pos - tailStart), (int) size) : file.read(pos, (int) size);
        try {
          ColumnMetadata cm = ColumnMetadata.parseFrom(bytes);
          if (!cm.hasEncoding()) {
            throw new CorruptFileException(loc, "Column " + i + " has no encoding");
          }
          columns.add(cm);
        } catch (InvalidProtocolBufferException e) {
          throw new CorruptFileException(loc, "Metadata of column " + i + " is not valid: " + e.getMessage(), e);
        }
      }

      long gb0Pos = gbs[0][0];
      long gb0Size = gbs[0][1];
      ByteBuffer gb0 = gb0Pos >= metaStart && gb0Pos + gb0Size <= length - Footer.SIZE
          ? slice(meta, (int) (gb0Pos - metaStart), (int) gb0Size)
          : gb0Pos >= tailStart
              ? slice(tail, (int) (gb0Pos - tailStart), (int) gb0Size)
              : file.read(gb0Pos, (int) gb0Size);
      FileDescriptor fd;
      try {
        fd = FileDescriptor.parseFrom(gb0);
      } catch (InvalidProtocolBufferException e) {
        throw new CorruptFileException(loc, "The file descriptor (global buffer 0) is not valid: " + e.getMessage(), e);
      }
      LanceSchema schema;
      try {
        schema = LanceSchema.fromProto(fd.getSchema().getFieldsList(), fd.getSchema().getMetadataMap());
      } catch (IllegalArgumentException e) {
        throw new CorruptFileException(loc, "The file's schema is not valid: " + e.getMessage(), e);
      }
      if (fd.getLength() < 0) {
        throw new CorruptFileException(loc, "Row count " + Long.toUnsignedString(fd.getLength()) + " is invalid");
      }
      EncodingStrategy strategy = EncodingStrategy.forVersion(version);
      long needed = 0;
      for (LanceField f : schema.fields()) {
        needed += strategy.numColumns(f);
      }
      if (needed != columns.size()) {
        throw new CorruptFileException(loc,
            "The schema needs " + needed + " columns but the file has " + columns.size());
      }
      return new FileMetadata(version, schema, fd.getLength(), List.copyOf(columns), gbs);
    } catch (EOFException e) {
      throw new CorruptFileException(loc, "File is truncated: " + e.getMessage(), e);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      // A slice past the metadata region (IllegalArgumentException from ByteBuffer.limit) too.
      throw new CorruptFileException(loc, "Metadata offsets are inconsistent", e);
    }
  }

  private static void checkRange(String loc, String what, long pos, long size, long length) {
    // Written so that huge values cannot overflow: pos + size > length, rearranged.
    if (pos < 0 || size < 0 || size > Integer.MAX_VALUE - 64 || size > length || pos > length - size) {
      throw new CorruptFileException(loc, "The " + what + " (" + pos + "+" + size + ") lies outside the file");
    }
  }

  private static ByteBuffer slice(ByteBuffer b, int at, int len) {
    ByteBuffer d = b.duplicate();
    d.position(at);
    d.limit(at + len);
    return d.slice().order(ByteOrder.LITTLE_ENDIAN);
  }
}
