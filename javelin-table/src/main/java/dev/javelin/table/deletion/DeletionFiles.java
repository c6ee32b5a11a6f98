package dev.javelin.table.deletion;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.ZstdIpcCodec;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads and writes deletion files, both of Lance's kinds: an Arrow IPC file (ZSTD-compressed
 * buffers) of one batch with one non-null {@code UInt32 row_id} column ({@code .arrow}), and a
 * portable-format roaring bitmap ({@code .bin}). Both hold physical row offsets in the fragment.
 * Like Lance, small vectors are written as Arrow files and larger ones as bitmaps.
 */
public final class DeletionFiles {
  /** Above this many deleted rows a fragment's deletions are written as a bitmap (as Lance does). */
  public static final int BITMAP_THRESHOLD = 5_000;

  private static final Schema ARROW_SCHEMA = new Schema(List.of(
      new Field("row_id", FieldType.notNullable(new ArrowType.Int(32, false)), null)));

  private DeletionFiles() {}

  /**
   * Reads a fragment's deleted row offsets, from the dataset's store {@code store} or the base
   * path the file lives under.
   *
   * @throws CorruptManifestException naming the file if it is not a deletion file
   */
  public static RoaringBitmap read(ObjectStore store, long fragmentId, DeletionFile file, BufferAllocator allocator)
      throws IOException {
    ObjectStore in = file.store(store, fragmentId);
    String key = file.key(store, fragmentId);
    byte[] bytes = in.read(key);
    String where = in.location() + "/" + key;
    RoaringBitmap rows = file.isBitmap() ? decodeBitmap(bytes, where) : decodeArrow(bytes, where, allocator);
    // Counts come from the manifest and rows from the file: they must agree (0 = not recorded).
    if (file.numDeletedRows() != 0 && rows.getLongCardinality() != file.numDeletedRows()) {
      throw TableErrors.corrupt(where, "Deletion file holds " + rows.getLongCardinality()
          + " deleted rows but the manifest records " + Long.toUnsignedString(file.numDeletedRows()));
    }
    return rows;
  }

  /**
   * Writes a new deletion file for a fragment (a new random id, so it never replaces a file an
   * older version uses) and returns its metadata.
   *
   * @param readVersion the version the deletions were computed on (part of the file name)
   * @throws IllegalArgumentException if {@code deleted} is empty (a fragment without deletions has no file)
   */
  public static DeletionFile write(ObjectStore store, long fragmentId, long readVersion, RoaringBitmap deleted,
      BufferAllocator allocator) throws IOException {
    if (deleted.isEmpty()) {
      throw new IllegalArgumentException("No deleted rows to write for fragment " + fragmentId + ": "
          + store.location());
    }
    long count = deleted.getLongCardinality();
    boolean bitmap = count > BITMAP_THRESHOLD;
    DeletionFile file = DeletionFile.fromProto(TableProtos.DeletionFile.newBuilder()
        .setFileType(bitmap ? TableProtos.DeletionFile.DeletionFileType.BITMAP
            : TableProtos.DeletionFile.DeletionFileType.ARROW_ARRAY)
        .setReadVersion(readVersion)
        .setId(ThreadLocalRandom.current().nextLong())
        .setNumDeletedRows(count)
        .build());
    store.put(file.key(fragmentId), bitmap ? encodeBitmap(deleted) : encodeArrow(deleted, allocator));
    return file;
  }

  static byte[] encodeBitmap(RoaringBitmap deleted) throws IOException {
    RoaringBitmap copy = deleted.clone();
    // Run containers are part of the portable format, but Rust's roaring crate has not always
    // read them: write array and bitmap containers only.
    copy.removeRunCompression();
    ByteArrayOutputStream out = new ByteArrayOutputStream(copy.serializedSizeInBytes());
    copy.serialize(new DataOutputStream(out));
    return out.toByteArray();
  }

  static RoaringBitmap decodeBitmap(byte[] bytes, String where) {
    RoaringBitmap b = new RoaringBitmap();
    try {
      b.deserialize(ByteBuffer.wrap(bytes));
    } catch (IOException | RuntimeException e) {
      throw TableErrors.corrupt(where, "Deletion file is not a portable roaring bitmap", e);
    }
    return b;
  }

  static byte[] encodeArrow(RoaringBitmap deleted, BufferAllocator allocator) throws IOException {
    int n = deleted.getCardinality();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(ARROW_SCHEMA, allocator)) {
      UInt4Vector v = (UInt4Vector) root.getVector(0);
      v.allocateNew(n);
      IntIterator it = deleted.getIntIterator();
      for (int i = 0; i < n; i++) {
        v.set(i, it.next());
      }
      v.setValueCount(n);
      root.setRowCount(n);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (ArrowFileWriter w = new ArrowFileWriter(root, null, Channels.newChannel(out), null,
          IpcOption.DEFAULT, ZstdIpcCodec.FACTORY, CompressionUtil.CodecType.ZSTD)) {
        w.start();
        w.writeBatch();
        w.end();
      }
      return out.toByteArray();
    }
  }

  static RoaringBitmap decodeArrow(byte[] bytes, String where, BufferAllocator allocator) {
    try (ArrowFileReader r = new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(bytes), allocator,
        ZstdIpcCodec.FACTORY)) {
      Schema schema = r.getVectorSchemaRoot().getSchema();
      if (!schema.getFields().equals(ARROW_SCHEMA.getFields())) {
        throw TableErrors.corrupt(where, "Deletion file has schema " + schema + ", expected " + ARROW_SCHEMA);
      }
      if (r.getRecordBlocks().size() != 1) {
        throw TableErrors.corrupt(where, "Deletion file has " + r.getRecordBlocks().size()
            + " batches, expected exactly one");
      }
      r.loadNextBatch();
      UInt4Vector v = (UInt4Vector) r.getVectorSchemaRoot().getVector(0);
      RoaringBitmap out = new RoaringBitmap();
      for (int i = 0; i < v.getValueCount(); i++) {
        if (v.isNull(i)) {
          throw TableErrors.corrupt(where, "Deletion file has a null row_id at " + i);
        }
        out.add(v.get(i));
      }
      return out;
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptManifestException) {
        throw (CorruptManifestException) e;
      }
      throw TableErrors.corrupt(where, "Deletion file is not an Arrow IPC file of row ids", e);
    }
  }
}
