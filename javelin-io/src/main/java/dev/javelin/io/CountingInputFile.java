package dev.javelin.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/** Wraps an {@link InputFile} and counts the reads and bytes that go through it. */
public final class CountingInputFile implements InputFile {
  private final InputFile delegate;
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();

  public CountingInputFile(InputFile delegate) {
    this.delegate = delegate;
  }

  public long bytesRead() {
    return bytesRead.get();
  }

  public long reads() {
    return reads.get();
  }

  public void reset() {
    bytesRead.set(0);
    reads.set(0);
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public long length() throws IOException {
    return delegate.length();
  }

  @Override
  public ByteBuffer read(long position, int length) throws IOException {
    reads.incrementAndGet();
    bytesRead.addAndGet(length);
    return delegate.read(position, length);
  }

  @Override
  public long blockSize() {
    return delegate.blockSize();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
