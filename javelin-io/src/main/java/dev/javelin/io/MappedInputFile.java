package dev.javelin.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file mapped into memory, for many small reads (takes) of an immutable file: a read is a
 * copy out of the mapping, with no system call. The file must not change while mapped (Lance data
 * files never do; truncating a mapped file makes reads of the lost part fail). The mapping holds
 * no file handle and is released by the garbage collector once unreachable, so {@link #close()}
 * does nothing and the object may be shared by any number of readers on any thread.
 */
public final class MappedInputFile implements InputFile {
  /** Files are mapped in segments of this many bytes (a mapped buffer holds under 2 GiB). */
  static final int SEGMENT = 1 << 30;

  private final Path path;
  private final long length;
  private final int segment;
  private final MappedByteBuffer[] segments;

  private MappedInputFile(Path path, long length, int segment, MappedByteBuffer[] segments) {
    this.path = path;
    this.length = length;
    this.segment = segment;
    this.segments = segments;
  }

  /** Maps a whole file (read-only). */
  public static MappedInputFile open(Path path) throws IOException {
    return open(path, SEGMENT);
  }

  /** Maps a file in segments of {@code segment} bytes (small ones let tests cross segments). */
  static MappedInputFile open(Path path, int segment) throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long length = channel.size();
      MappedByteBuffer[] segments = new MappedByteBuffer[(int) ((length + segment - 1) / segment)];
      for (int i = 0; i < segments.length; i++) {
        long at = (long) i * segment;
        segments[i] = channel.map(FileChannel.MapMode.READ_ONLY, at, Math.min(segment, length - at));
      }
      return new MappedInputFile(path, length, segment, segments);
    }
  }

  @Override
  public String location() {
    return path.toString();
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    check(position, len);
    byte[] bytes = new byte[len];
    copy(position, bytes, 0, len);
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public ByteBuffer view(long position, int len) throws IOException {
    check(position, len);
    int at = (int) (position % segment);
    MappedByteBuffer seg = segments[(int) (position / segment)];
    if (len > seg.capacity() - at) {
      return read(position, len); // spans two segments
    }
    return seg.slice(at, len).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  // A range inside one mapped segment; one spanning two is copied by view.
  @Override
  public boolean viewable(long position, long length) {
    return position >= 0 && length > 0 && position <= this.length - length
        && position / segment == (position + length - 1) / segment;
  }

  @Override
  public boolean mapped() {
    return true;
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    int len = dst.remaining();
    check(position, len);
    if (dst.hasArray()) {
      copy(position, dst.array(), dst.arrayOffset() + dst.position(), len);
      dst.position(dst.position() + len);
      return;
    }
    long pos = position;
    while (dst.hasRemaining()) {
      ByteBuffer seg = segments[(int) (pos / segment)];
      int at = (int) (pos % segment);
      int n = Math.min(dst.remaining(), seg.capacity() - at);
      dst.put(seg.slice(at, n));
      pos += n;
    }
  }

  // Copies len bytes at position, which may span segments, into dst[off...].
  private void copy(long position, byte[] dst, int off, int len) {
    long pos = position;
    int done = 0;
    while (done < len) {
      ByteBuffer seg = segments[(int) (pos / segment)];
      int at = (int) (pos % segment);
      int n = Math.min(len - done, seg.capacity() - at);
      seg.get(at, dst, off + done, n);
      pos += n;
      done += n;
    }
  }

  private void check(long position, int len) throws EOFException {
    if (position < 0 || len < 0 || position > length - len) {
      throw new EOFException(
          "Read of " + len + " bytes at " + position + " passes the end (" + length + " bytes) of " + path);
    }
  }

  /** Does nothing: the mapping is released when this object is no longer reachable. */
  @Override
  public void close() {}
}
