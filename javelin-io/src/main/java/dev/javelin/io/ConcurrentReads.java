package dev.javelin.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * {@link InputFile#readAll} for remote stores: the ranges are read at once on the store's read
 * executor, each by {@link InputFile#read}, so their round trips overlap. Written once for every
 * store.
 */
public final class ConcurrentReads {
  private ConcurrentReads() {}

  /**
   * Reads each range of {@code file} on {@code reads}, the first on the calling thread. If one
   * fails, the reads not yet sent are cancelled and the first failure is thrown.
   */
  public static ByteBuffer[] readAll(InputFile file, long[] positions, int[] lengths, ExecutorService reads)
      throws IOException {
    int n = positions.length;
    ByteBuffer[] out = new ByteBuffer[n];
    if (n <= 1) {
      for (int i = 0; i < n; i++) {
        out[i] = file.read(positions[i], lengths[i]);
      }
      return out;
    }
    @SuppressWarnings("unchecked")
    Future<ByteBuffer>[] pending = new Future[n];
    for (int i = 1; i < n; i++) {
      long position = positions[i];
      int length = lengths[i];
      pending[i] = reads.submit(() -> file.read(position, length));
    }
    Throwable failure = null;
    try {
      out[0] = file.read(positions[0], lengths[0]);
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    boolean interrupted = false;
    for (int i = 1; i < n; i++) {
      if (failure != null) {
        pending[i].cancel(false);
      }
      while (true) {
        try {
          out[i] = pending[i].get();
          break;
        } catch (InterruptedException e) {
          // Stop waiting for reads not yet sent; a read under way fills a buffer of its own,
          // which is dropped.
          interrupted = true;
          if (failure == null) {
            failure = new InterruptedIOException("Interrupted while reading " + file.location());
          }
          for (int j = i; j < n; j++) {
            pending[j].cancel(false);
          }
        } catch (CancellationException e) {
          break;
        } catch (ExecutionException e) {
          if (failure == null) {
            failure = e.getCause();
          }
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    if (failure != null) {
      throw new UncheckedIOException(new IOException(failure));
    }
    return out;
  }
}
