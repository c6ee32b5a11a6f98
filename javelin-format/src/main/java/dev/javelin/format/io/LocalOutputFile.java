package dev.javelin.format.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** An {@link OutputFile} on the local file system. */
public final class LocalOutputFile implements OutputFile {
  private final Path path;

  public LocalOutputFile(Path path) {
    this.path = path;
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
    OutputStream out =
        Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new Stream(new BufferedOutputStream(out, 1 << 20));
  }

  private static final class Stream extends PositionOutputStream {
    private final OutputStream out;
    private long position;

    Stream(OutputStream out) {
      this.out = out;
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
      out.close();
    }
  }
}
