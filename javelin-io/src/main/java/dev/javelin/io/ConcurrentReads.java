package dev.javelin.io;

import dev.javelin.common.Tasks;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * {@link InputFile#readAll} for remote stores: the ranges are read at once on the store's read
 * executor, each by {@link InputFile#read}, so their round trips overlap. Written once for every
 * store.
 */
public final class ConcurrentReads {
  private ConcurrentReads() {}

  /**
   * Reads each range of {@code file} on {@code reads}, the calling thread taking the ranges no read
   * thread has started. If one fails, the reads not yet started are not sent and the first
   * failure is thrown.
   */
  public static ByteBuffer[] readAll(InputFile file, long[] positions, int[] lengths, ExecutorService reads)
      throws IOException {
    int n = positions.length;
    if (n <= 1) {
      return n == 0 ? new ByteBuffer[0] : new ByteBuffer[] {file.read(positions[0], lengths[0])};
    }
    List<Integer> ranges = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ranges.add(i);
    }
    List<ByteBuffer> got = Tasks.foreach(ranges).executeWith(reads).callerRuns()
        .onInterrupt(e -> new UncheckedIOException(new InterruptedIOException("Interrupted while reading "
            + file.location())))
        .run(i -> file.read(positions[i], lengths[i]));
    return got.toArray(new ByteBuffer[0]);
  }
}
