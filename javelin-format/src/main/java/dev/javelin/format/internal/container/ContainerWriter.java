package dev.javelin.format.internal.container;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.InputFile;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Lays out a Lance 2.x file: data buffers padded to 64 bytes as encoders hand them over, then at
 * {@link #finish} the schema (global buffer 0), column metadata, the two offset tables and the
 * footer.
 */
public final class ContainerWriter implements BufferSink {
  static final int ALIGNMENT = 64;
  // Lance pads with 'H' (72); readers do not care what the padding holds.
  private static final byte[] PADDING = filled(ALIGNMENT, (byte) 72);

  private final OutputFile output;
  private final PositionOutputStream out;
  private byte[] scratch = new byte[1 << 16];
  private long length = -1;

  public ContainerWriter(OutputFile output) throws IOException {
    this.output = output;
    this.out = output.create();
  }

  private static byte[] filled(int n, byte b) {
    byte[] a = new byte[n];
    Arrays.fill(a, b);
    return a;
  }

  @Override
  public long write(ByteBuffer buffer) throws IOException {
    long at = out.position();
    writeBytes(buffer);
    pad();
    return at;
  }

  /**
   * Appends the bytes [position, position + length) of {@code source} as one buffer (padded like
   * any other), through the stream's {@link PositionOutputStream#copy} (so a store may copy them
   * without downloading them), and returns where they start.
   */
  public long copy(InputFile source, long position, long length) throws IOException {
    long at = out.position();
    out.copy(source, position, length);
    pad();
    return at;
  }

  private void writeBytes(ByteBuffer buffer) throws IOException {
    ByteBuffer b = buffer.duplicate();
    if (b.hasArray()) {
      out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
      return;
    }
    while (b.hasRemaining()) {
      int n = Math.min(scratch.length, b.remaining());
      b.get(scratch, 0, n);
      out.write(scratch, 0, n);
    }
  }

  private void pad() throws IOException {
    int rem = (int) (out.position() % ALIGNMENT);
    if (rem != 0) {
      out.write(PADDING, 0, ALIGNMENT - rem);
    }
  }

  /** Writes the metadata and the footer, and closes the file. */
  public void finish(List<ColumnMetadata> columns, byte[] fileDescriptor, LanceFileVersion version)
      throws IOException {
    finish(columns, fileDescriptor, List.of(), version);
  }

  /**
   * Writes the metadata and the footer, and closes the file; {@code extraBuffers} are the
   * (position, size) of global buffers 1.. already written with {@link #write}.
   */
  public void finish(List<ColumnMetadata> columns, byte[] fileDescriptor, List<long[]> extraBuffers,
      LanceFileVersion version) throws IOException {
    pad();
    long gb0 = out.position();
    out.write(fileDescriptor);
    long columnMetadataStart = out.position();
    long[] positions = new long[columns.size()];
    long[] sizes = new long[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      byte[] bytes = columns.get(i).toByteArray();
      positions[i] = out.position();
      sizes[i] = bytes.length;
      out.write(bytes);
    }
    long cmo = out.position();
    ByteBuffer table = ByteBuffer.allocate(16 * columns.size()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < columns.size(); i++) {
      table.putLong(positions[i]).putLong(sizes[i]);
    }
    out.write(table.array());
    long gbo = out.position();
    ByteBuffer gboTable = ByteBuffer.allocate(16 * (1 + extraBuffers.size())).order(ByteOrder.LITTLE_ENDIAN);
    gboTable.putLong(gb0).putLong(fileDescriptor.length);
    for (long[] b : extraBuffers) {
      gboTable.putLong(b[0]).putLong(b[1]);
    }
    out.write(gboTable.array());
    out.write(Footer.encode(columnMetadataStart, cmo, gbo, 1 + extraBuffers.size(), columns.size(), version));
    length = out.position();
    out.close();
  }

  /**
   * The finished file's size in bytes (what a listing would give), so that a writer records it
   * without asking the store.
   *
   * @throws IllegalStateException before {@link #finish}
   */
  public long length() {
    if (length < 0) {
      throw new IllegalStateException("Not finished: " + output.location());
    }
    return length;
  }

  /** Closes and removes the partial file. */
  public void abort() throws IOException {
    try {
      out.close();
    } finally {
      output.delete();
    }
  }
}
