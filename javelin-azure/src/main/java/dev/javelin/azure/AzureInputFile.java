package dev.javelin.azure;

import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobDownloadHeaders;
import com.azure.storage.blob.models.BlobDownloadResponse;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.DownloadRetryOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import dev.javelin.io.ConcurrentReads;
import dev.javelin.io.InputFile;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A blob read by ranged GETs. Its length, last-modified time and ETag come from one HEAD, lazily,
 * or from the first GET's headers; once known, reads are pinned to that ETag, so a blob replaced
 * under a reader fails its reads rather than mixing two objects. A download cut midway is
 * resumed from the byte it reached, after an exponential, jittered pause, up to the store's
 * retry count. Safe for concurrent reads.
 */
final class AzureInputFile implements InputFile {
  private static final long BASE_DELAY_MS = 100;
  private static final long MAX_DELAY_MS = 5_000;

  // Package-private: an output stream of the same store copies from the blob server-side.
  final AzureObjectStore store;
  private final String key;
  final BlockBlobClient client;
  private volatile Meta meta;

  private static final class Meta {
    final long length;
    final long lastModified;
    final String etag;

    Meta(long length, long lastModified, String etag) {
      this.length = length;
      this.lastModified = lastModified;
      this.etag = etag;
    }
  }

  // The length the caller knows (a data file's, from the manifest), or -1: asked for with a HEAD.
  private final long knownLength;

  AzureInputFile(AzureObjectStore store, String key, BlockBlobClient client, long knownLength) {
    this.store = store;
    this.key = key;
    this.client = client;
    this.knownLength = knownLength;
  }

  @Override
  public String location() {
    return store.location() + "/" + key;
  }

  @Override
  public long length() throws IOException {
    return knownLength >= 0 ? knownLength : meta().length;
  }

  @Override
  public long lastModified() throws IOException {
    return meta().lastModified;
  }

  @Override
  public long blockSize() {
    return REMOTE_BLOCK_SIZE;
  }

  private Meta meta() throws IOException {
    Meta m = meta;
    if (m != null) {
      return m;
    }
    synchronized (this) {
      if (meta == null) {
        try {
          BlobProperties p = client.getProperties();
          meta = new Meta(p.getBlobSize(), p.getLastModified() == null ? -1 : p.getLastModified().toInstant().toEpochMilli(),
              p.getETag());
        } catch (BlobStorageException e) {
          throw store.failure(e, "read " + location(), key);
        } catch (RuntimeException e) {
          throw store.failure(e, "read " + location());
        }
      }
      return meta;
    }
  }

  /** Remembers what a GET's headers say of the whole blob, if nothing is known yet. */
  private void learn(BlobDownloadHeaders h) {
    if (meta != null || h == null) {
      return;
    }
    long total = -1;
    String range = h.getContentRange();
    if (range != null && range.lastIndexOf('/') >= 0) {
      String t = range.substring(range.lastIndexOf('/') + 1).trim();
      if (!t.equals("*")) {
        total = Long.parseLong(t);
      }
    } else if (range == null && h.getContentLength() != null) {
      total = h.getContentLength();
    }
    if (total < 0) {
      return;
    }
    synchronized (this) {
      if (meta == null) {
        meta = new Meta(total, h.getLastModified() == null ? -1 : h.getLastModified().toInstant().toEpochMilli(),
            h.getETag());
      }
    }
  }

  /** The ranges' GETs at once, on the store's read threads. */
  @Override
  public ByteBuffer[] readAll(long[] positions, int[] lengths) throws IOException {
    return ConcurrentReads.readAll(this, positions, lengths, store.shared().reads);
  }

  @Override
  public ByteBuffer read(long position, int length) throws IOException {
    if (position < 0 || length < 0) {
      throw new IllegalArgumentException("Negative position or length: " + position + ", " + length);
    }
    byte[] out = new byte[length];
    if (length > 0) {
      readInto(position, out, 0, length);
    }
    return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    if (dst.hasArray()) {
      int n = dst.remaining();
      if (n > 0) {
        readInto(position, dst.array(), dst.arrayOffset() + dst.position(), n);
      }
      dst.position(dst.position() + n);
    } else {
      dst.put(read(position, dst.remaining()));
    }
  }

  /** The whole blob in one GET (a cut download falls back to ranged reads). */
  byte[] readAll() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      BlobDownloadResponse r = client.downloadStreamWithResponse(out, null,
          new DownloadRetryOptions().setMaxRetryRequests(0), null, false, null, Context.NONE);
      learn(r.getDeserializedHeaders());
      return out.toByteArray();
    } catch (BlobStorageException e) {
      throw store.failure(e, "read " + location(), key);
    } catch (RuntimeException e) {
      long len = length();
      if (len > Integer.MAX_VALUE) {
        throw new IOException("Object too large to read whole: " + location());
      }
      return read(0, (int) len).array();
    }
  }

  /** Reads [position, position + length) into {@code dst} at {@code offset}, resuming a cut download. */
  private void readInto(long position, byte[] dst, int offset, int length) throws IOException {
    int got = 0;
    int attempt = 0;
    int maxRetries = store.shared().config.maxRetries;
    while (true) {
      Meta m = meta;
      BlobRequestConditions conditions = m == null || m.etag == null ? null : new BlobRequestConditions().setIfMatch(m.etag);
      Sink sink = new Sink(dst, offset + got, length - got);
      try {
        BlobDownloadResponse r = client.downloadStreamWithResponse(sink,
            new BlobRange(position + got, (long) (length - got)), new DownloadRetryOptions().setMaxRetryRequests(0),
            conditions, false, null, Context.NONE);
        learn(r.getDeserializedHeaders());
        got += sink.written;
        if (got < length) {
          throw eof(position, length);
        }
        return;
      } catch (BlobStorageException e) {
        if (e.getStatusCode() == 416) {
          throw eof(position, length);
        }
        if (e.getStatusCode() == 412 && conditions != null) {
          throw new IOException("Object changed while being read (ETag " + m.etag + "): " + location(), e);
        }
        throw store.failure(e, "read " + location(), key);
      } catch (RuntimeException e) {
        got += sink.written;
        // The SDK retried the request itself; a body cut midway is resumed here. A try that got
        // no byte counts double, so a dead connection is not retried as often as a slow one.
        attempt += sink.written > 0 ? 0 : 1;
        if (attempt >= maxRetries) {
          throw store.failure(e, "read " + location() + " at byte " + (position + got));
        }
        attempt++;
        pause(attempt);
        if (meta == null) {
          meta(); // pin the rest of the range to the blob we started reading
        }
      }
    }
  }

  private EOFException eof(long position, int length) throws IOException {
    Meta m = meta;
    return new EOFException("Read past the end of " + location() + ": " + length + " bytes at " + position
        + (m == null ? "" : " of " + m.length));
  }

  private static void pause(int attempt) throws InterruptedIOException {
    long delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS << Math.min(attempt - 1, 16));
    delay = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting to retry a read");
    }
  }

  @Override
  public void close() {}

  /** Writes a download straight into the caller's array, refusing more than was asked for. */
  private static final class Sink extends OutputStream {
    private final byte[] dst;
    private final int offset;
    private final int capacity;
    int written;

    Sink(byte[] dst, int offset, int capacity) {
      this.dst = dst;
      this.offset = offset;
      this.capacity = capacity;
    }

    @Override
    public void write(int b) throws IOException {
      if (written >= capacity) {
        throw new IOException("Azure sent more bytes than the range asked for");
      }
      dst[offset + written++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > capacity - written) {
        throw new IOException("Azure sent more bytes than the range asked for");
      }
      System.arraycopy(b, off, dst, offset + written, len);
      written += len;
    }
  }
}
