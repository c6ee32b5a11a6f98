package dev.javelin.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An {@link OutputFile} on the local file system. With {@code sync}, closing the stream forces
 * the bytes to disk first (fsync), so a file is durable once its writer is closed.
 */
public final class LocalOutputFile implements OutputFile {
  private final Path path;
  private final boolean sync;

  public LocalOutputFile(Path path) {
    this(path, false);
  }

  public LocalOutputFile(Path path, boolean sync) {
    this.path = path;
    this.sync = sync;
  }

  @Override
  public String location() {
    return path.toString();
  }

  @Override
  public void delete() throws IOException {
    Files.deleteIfExists(path);
  }

  @Override
  public PositionOutputStream create() throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new Stream(channel, new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20), sync);
  }

  private static final class Stream extends PositionOutputStream {
    private final FileChannel channel;
    private final OutputStream out;
    private final boolean sync;
    private long position;

    Stream(FileChannel channel, OutputStream out, boolean sync) {
      this.channel = channel;
      this.out = out;
      this.sync = sync;
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      position += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      try {
        out.flush();
        if (sync && channel.isOpen()) {
          channel.force(true);
        }
      } finally {
        out.close();
      }
    }
  }
}
