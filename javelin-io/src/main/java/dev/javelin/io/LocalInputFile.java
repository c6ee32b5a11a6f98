package dev.javelin.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** An {@link InputFile} on the local file system, read with positional reads on one channel. */
public final class LocalInputFile implements InputFile {
  private final Path path;
  private final FileChannel channel;
  private final long length;

  private LocalInputFile(Path path, FileChannel channel, long length) {
    this.path = path;
    this.channel = channel;
    this.length = length;
  }

  /** Opens a file for reading; the caller closes it. */
  public static LocalInputFile open(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    return new LocalInputFile(path, channel, channel.size());
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
  public long lastModified() throws IOException {
    return Files.getLastModifiedTime(path).toMillis();
  }

  /** {@link #LOCAL_BLOCK_SIZE}: a local read costs little more than its bytes. */
  @Override
  public long blockSize() {
    return LOCAL_BLOCK_SIZE;
  }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    if (position < 0 || len < 0 || position + len > length) {
      throw new EOFException(
          "Read of " + len + " bytes at " + position + " passes the end (" + length + " bytes) of " + path);
    }
    ByteBuffer buffer = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
    long pos = position;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, pos);
      if (n < 0) {
        throw new EOFException("Unexpected end of " + path + " at " + pos);
      }
      pos += n;
    }
    buffer.flip();
    return buffer;
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    int len = dst.remaining();
    if (position < 0 || position + len > length) {
      throw new EOFException(
          "Read of " + len + " bytes at " + position + " passes the end (" + length + " bytes) of " + path);
    }
    long pos = position;
    while (dst.hasRemaining()) {
      int n = channel.read(dst, pos);
      if (n < 0) {
        throw new EOFException("Unexpected end of " + path + " at " + pos);
      }
      pos += n;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
