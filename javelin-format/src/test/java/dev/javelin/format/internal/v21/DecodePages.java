package dev.javelin.format.internal.v21;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.compression.bitpack.MiniBlockChunks;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.LocalOutputFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Builds 2.1 files by hand, one column of pages whose buffers and layouts a test supplies, so that
 * each decoder can be fed exactly the bytes an encoding produces (with the pure codecs) or bytes
 * that lie.
 */
final class DecodePages {
  private DecodePages() {}

  /** One page: its layout, row count and buffers. */
  static final class Page {
    final PageLayout layout;
    final long rows;
    final List<byte[]> buffers;

    Page(PageLayout layout, long rows, List<byte[]> buffers) {
      this.layout = layout;
      this.rows = rows;
      this.buffers = buffers;
    }
  }

  /** Writes a file with one field whose single column holds the pages. */
  static Path write(Path file, Field field, LanceFileVersion version, Page... pages) throws IOException {
    return write(file, field, version, List.of(), pages);
  }

  /**
   * As {@link #write(Path, Field, LanceFileVersion, Page...)}, with buffers that belong to no page
   * written first (blobs): the first at offset 0, each next one at the next multiple of 64.
   */
  static Path write(Path file, Field field, LanceFileVersion version, List<byte[]> prelude, Page... pages)
      throws IOException {
    LanceSchema schema = LanceSchema.fromArrow(new Schema(List.of(field)));
    ContainerWriter w = new ContainerWriter(new LocalOutputFile(file));
    for (byte[] b : prelude) {
      w.write(ByteBuffer.wrap(b));
    }
    ColumnMetadata.Builder column = ColumnMetadata.newBuilder().setEncoding(Protos21.columnEncoding());
    long rows = 0;
    for (Page p : pages) {
      ColumnMetadata.Page.Builder pb = ColumnMetadata.Page.newBuilder().setLength(p.rows).setPriority(rows)
          .setEncoding(Protos21.direct(p.layout, Protos21.PAGE_LAYOUT_URL));
      for (byte[] b : p.buffers) {
        pb.addBufferOffsets(w.write(ByteBuffer.wrap(b))).addBufferSizes(b.length);
      }
      column.addPages(pb);
      rows += p.rows;
    }
    FileDescriptor fd = FileDescriptor.newBuilder().setSchema(schema.toProto()).setLength(rows).build();
    w.finish(List.of(column.build()), fd.toByteArray(), version);
    return file;
  }

  /** A mini-block chunk: its value count, levels (null when absent) and value buffers. */
  static final class Chunk {
    final int values;
    final int levels;
    final byte[] rep;
    final byte[] def;
    final byte[][] buffers;

    Chunk(int values, int levels, byte[] rep, byte[] def, byte[]... buffers) {
      this.values = values;
      this.levels = levels;
      this.rep = rep;
      this.def = def;
      this.buffers = buffers;
    }

    static Chunk of(int values, byte[]... buffers) {
      return new Chunk(values, 0, null, null, buffers);
    }
  }

  /** The chunks a codec cut, one per chunk with that chunk's slice of every buffer. */
  static List<Chunk> chunks(MiniBlockChunks c) {
    List<Chunk> out = new ArrayList<>();
    for (int k = 0; k < c.numChunks(); k++) {
      byte[][] bufs = new byte[c.numBuffers()][];
      for (int b = 0; b < bufs.length; b++) {
        int off = c.chunkBufferOffset(k, b);
        bufs[b] = java.util.Arrays.copyOfRange(c.buffer(b), off, off + c.chunkBufferSize(k, b));
      }
      out.add(Chunk.of((int) c.chunkNumValues(k), bufs));
    }
    return out;
  }

  /**
   * The chunk metadata and chunk buffers (page buffers 0 and 1) of a mini-block page: each chunk
   * a header (levels count, level sizes, buffer sizes of 2 or, for large chunks, 4 bytes), then
   * the levels and buffers, each padded to 8 bytes.
   */
  static byte[][] miniBlock(List<Chunk> chunks, boolean large) {
    ByteArrayOutputStream meta = new ByteArrayOutputStream();
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int k = 0; k < chunks.size(); k++) {
      Chunk c = chunks.get(k);
      ByteBuffer h = ByteBuffer.allocate(8 + 4 * c.buffers.length).order(ByteOrder.LITTLE_ENDIAN);
      h.putShort((short) c.levels);
      if (c.rep != null) {
        h.putShort((short) c.rep.length);
      }
      if (c.def != null) {
        h.putShort((short) c.def.length);
      }
      for (byte[] b : c.buffers) {
        if (large) {
          h.putInt(b.length);
        } else {
          h.putShort((short) b.length);
        }
      }
      int start = data.size();
      data.write(h.array(), 0, h.position());
      pad(data, (byte) 0xFE);
      for (byte[] part : new byte[][] {c.rep, c.def}) {
        if (part != null) {
          data.write(part, 0, part.length);
          pad(data, (byte) 0);
        }
      }
      for (byte[] b : c.buffers) {
        data.write(b, 0, b.length);
        pad(data, (byte) 0);
      }
      int words = (data.size() - start) / 8 - 1;
      int log = k == chunks.size() - 1 ? 0 : Integer.numberOfTrailingZeros(c.values);
      int word = words << 4 | log;
      if (large) {
        meta.write(le(word, 4), 0, 4);
      } else {
        meta.write(le(word, 2), 0, 2);
      }
    }
    return new byte[][] {meta.toByteArray(), data.toByteArray()};
  }

  private static void pad(ByteArrayOutputStream out, byte fill) {
    while (out.size() % 8 != 0) {
      out.write(fill);
    }
  }

  static byte[] le(long v, int width) {
    byte[] b = new byte[width];
    for (int i = 0; i < width && i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }

  /** Variable-width values as a mini-block chunk buffer: n + 1 u32 offsets from its start, then the bytes. */
  static byte[] variableChunk(List<byte[]> values) {
    int head = 4 * (values.size() + 1);
    ByteBuffer b = ByteBuffer.allocate(head + values.stream().mapToInt(v -> v.length).sum())
        .order(ByteOrder.LITTLE_ENDIAN);
    int off = head;
    for (byte[] v : values) {
      b.putInt(off);
      off += v.length;
    }
    b.putInt(off);
    for (byte[] v : values) {
      b.put(v);
    }
    return b.array();
  }

  /** Variable-width values as a block (a dictionary): {@code u32 32, u32 start, n + 1 offsets, bytes}. */
  static byte[] variableBlock(List<byte[]> values) {
    int n = values.size();
    int start = 8 + 4 * (n + 1);
    ByteBuffer b = ByteBuffer.allocate(start + values.stream().mapToInt(v -> v.length).sum())
        .order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(32).putInt(start);
    int off = 0;
    b.putInt(0);
    for (byte[] v : values) {
      off += v.length;
      b.putInt(off);
    }
    for (byte[] v : values) {
      b.put(v);
    }
    return b.array();
  }
}
