package dev.javelin.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** An output stream that knows how many bytes it has written. */
public abstract class PositionOutputStream extends OutputStream {
  /** The most bytes {@link #copy} holds at once when it reads and writes. */
  static final int COPY_CHUNK = 8 << 20;

  /** The number of bytes written so far: the position of the next byte. */
  public abstract long position();

  /**
   * Appends the bytes [position, position + length) of {@code source}. The default reads and
   * writes them a few MiB at a time; a store that copies between its own objects (S3's
   * UploadPartCopy, see {@link ObjectStore#copiesServerSide}) sends large ranges of its own
   * objects without downloading them.
   *
   * @throws java.io.EOFException if the range passes the end of {@code source}
   */
  public void copy(InputFile source, long position, long length) throws IOException {
    for (long done = 0; done < length; ) {
      int n = (int) Math.min(COPY_CHUNK, length - done);
      ByteBuffer b = source.read(position + done, n);
      write(b.array(), b.arrayOffset() + b.position(), n);
      done += n;
    }
  }
}
