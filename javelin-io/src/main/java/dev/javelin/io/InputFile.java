package dev.javelin.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file to read from by position. Implementations are safe for concurrent positional reads.
 * Reads past the end fail with {@link java.io.EOFException}.
 */
public interface InputFile extends Closeable {
  /** Where the file is, for error messages. */
  String location();

  /** The length in bytes. */
  long length() throws IOException;

  /**
   * When the file was last modified, in milliseconds since the epoch, or -1 when unknown. With
   * the length, it tells a cache of file metadata that a file was replaced under the same name.
   */
  default long lastModified() throws IOException {
    return -1;
  }

  /**
   * Reads exactly {@code length} bytes starting at {@code position}.
   *
   * @return a little-endian heap buffer positioned at 0 with {@code length} bytes remaining
   * @throws java.io.EOFException if the range passes the end of the file
   */
  ByteBuffer read(long position, int length) throws IOException;

  /**
   * The bytes [position, position + length), as {@link #read} returns them, or as a read-only
   * little-endian view of memory the file is mapped to (no array; valid as long as the file
   * object is reachable), where reading a few bytes of a large range costs no copy of the rest.
   * The default reads.
   *
   * @throws java.io.EOFException if the range passes the end of the file
   */
  default ByteBuffer view(long position, int length) throws IOException {
    return read(position, length);
  }

  /**
   * Whether {@link #view} of this range is a view of mapped memory rather than a copy (false by
   * default): a reader may then view a whole page once and copy rows out of it.
   */
  default boolean viewable(long position, long length) {
    return false;
  }

  /** {@link #blockSize()} of a remote object store, as Lance infers it for cloud stores. */
  long REMOTE_BLOCK_SIZE = 64 << 10;
  /** {@link #blockSize()} of a local file, as Lance infers it for the file system. */
  long LOCAL_BLOCK_SIZE = 4 << 10;

  /**
   * The gap in bytes up to which two ranges are cheaper read as one read (the bytes between read
   * and dropped) than as two: a reader that knows several ranges ahead coalesces them, as Lance's
   * I/O scheduler does with its store's block size. The default, {@link #REMOTE_BLOCK_SIZE}, suits
   * a remote object store, where a request costs more than 64 KiB of transfer.
   */
  default long blockSize() {
    return REMOTE_BLOCK_SIZE;
  }

  /** Whether {@link #view} returns views of mapped memory (so a view costs no read). */
  default boolean mapped() {
    return false;
  }

  /**
   * Reads exactly {@code dst.remaining()} bytes starting at {@code position} into {@code dst},
   * advancing its position. Lets a reader fill an Arrow buffer (through its NIO view) without an
   * intermediate copy; the default reads through {@link #read(long, int)}.
   *
   * @throws java.io.EOFException if the range passes the end of the file
   */
  default void readFully(long position, ByteBuffer dst) throws IOException {
    dst.put(read(position, dst.remaining()));
  }

  /**
   * Reads several ranges, as {@link #read} reads each: result {@code i} holds
   * {@code lengths[i]} bytes from {@code positions[i]}. A remote store sends the requests at once
   * (up to its read concurrency), so n ranges cost about one round trip instead of n; the default
   * reads them one after the other, which a local file does as fast.
   *
   * @throws java.io.EOFException if a range passes the end of the file
   */
  default ByteBuffer[] readAll(long[] positions, int[] lengths) throws IOException {
    ByteBuffer[] out = new ByteBuffer[positions.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = read(positions[i], lengths[i]);
    }
    return out;
  }
}
