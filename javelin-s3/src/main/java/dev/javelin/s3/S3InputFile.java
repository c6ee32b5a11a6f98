package dev.javelin.s3;

import dev.javelin.common.Tasks;
import dev.javelin.io.ConcurrentReads;
import dev.javelin.io.InputFile;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * An object read by ranged GETs, one per {@link #read}. Its length and modification time come
 * from one HEAD, sent on first need. Holds no connection between reads, so it is safe for
 * concurrent reads and closing it releases nothing. A GET whose body breaks off midway (a reset
 * connection, a truncated response) is sent again, with backoff, as the SDK only retries
 * failures before the body starts.
 */
final class S3InputFile implements InputFile {
  // Package-private: an output stream of the same clients copies from the object server-side.
  final S3Clients clients;
  final String bucket;
  final String key;
  private final String location;
  private volatile HeadObjectResponse head;
  // The length the caller knew (a manifest's file size), or -1: then a HEAD asks.
  private final long knownLength;

  S3InputFile(S3Clients clients, String bucket, String key, String location, long knownLength) {
    this.clients = clients;
    this.bucket = bucket;
    this.key = key;
    this.location = location;
    this.knownLength = knownLength;
  }

  @Override
  public String location() {
    return location;
  }

  private HeadObjectResponse head() throws IOException {
    HeadObjectResponse h = head;
    if (h == null) {
      synchronized (this) {
        h = head;
        if (h == null) {
          try {
            h = clients.client.headObject(r -> r.bucket(bucket).key(key));
          } catch (SdkException e) {
            throw S3Errors.io(e, location);
          }
          head = h;
        }
      }
    }
    return h;
  }

  @Override
  public long length() throws IOException {
    return knownLength >= 0 ? knownLength : head().contentLength();
  }

  @Override
  public long lastModified() throws IOException {
    HeadObjectResponse h = head();
    return h.lastModified() == null ? -1 : h.lastModified().toEpochMilli();
  }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    long length = length();
    if (position < 0 || len < 0 || position + len > length) {
      throw new EOFException(
          "Read of " + len + " bytes at " + position + " passes the end (" + length + " bytes) of " + location);
    }
    byte[] out = new byte[len];
    if (len > 0) {
      fetch(position, out);
    }
    return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The ranges' GETs at once, on the store's read threads. */
  @Override
  public ByteBuffer[] readAll(long[] positions, int[] lengths) throws IOException {
    return ConcurrentReads.readAll(this, positions, lengths, clients.reads);
  }

  /**
   * The whole object by one GET without a range (no HEAD first: the answer says how long it is),
   * sent again when its body breaks off.
   */
  byte[] readWhole() throws IOException {
    GetObjectRequest request = GetObjectRequest.builder().bucket(bucket).key(key).build();
    return getRetried(request, "Reading " + location, in -> {
      Long length = in.response().contentLength();
      if (length == null || length > Integer.MAX_VALUE - 64) {
        throw new IOException("Object too large to read whole (" + length + " bytes): " + location);
      }
      byte[] out = new byte[length.intValue()];
      readBody(in, out);
      return out;
    });
  }

  // One ranged GET into `out`, sent again when its body breaks off.
  private void fetch(long position, byte[] out) throws IOException {
    GetObjectRequest request = GetObjectRequest.builder().bucket(bucket).key(key)
        .range("bytes=" + position + "-" + (position + out.length - 1)).build();
    getRetried(request, "Reading " + out.length + " bytes at " + position + " of " + location, in -> {
      readBody(in, out);
      return null;
    });
  }

  /** What is made of a GET's answer; a body that breaks off throws {@link BrokenBody}. */
  @FunctionalInterface
  private interface Body<T> {
    T read(ResponseInputStream<GetObjectResponse> in) throws IOException;
  }

  // Sends the GET and reads its answer with `body`, again (with backoff) while the body breaks off
  // midway: the SDK only retries failures before the body starts.
  private <T> T getRetried(GetObjectRequest request, String what, Body<T> body) throws IOException {
    try {
      return Tasks.retry()
          .maxAttempts(clients.config.maxAttempts())
          .backoff(Duration.ofMillis(50), Duration.ofSeconds(5))
          .jitter(1)
          .retryOn(BrokenBody.class)
          .run(attempt -> {
            ResponseInputStream<GetObjectResponse> in = get(request);
            try {
              return body.read(in);
            } catch (BrokenBody e) {
              in.abort(); // the connection is broken: do not return it to the pool
              throw e;
            } finally {
              closeQuietly(in);
            }
          });
    } catch (BrokenBody e) {
      throw new IOException(what + " failed after " + clients.config.maxAttempts() + " attempts: " + e.getMessage(),
          e.getCause());
    }
  }

  private ResponseInputStream<GetObjectResponse> get(GetObjectRequest request) throws IOException {
    try {
      return clients.client.getObject(request);
    } catch (SdkException e) {
      throw S3Errors.io(e, location);
    }
  }

  private void readBody(InputStream in, byte[] out) {
    int n = 0;
    try {
      while (n < out.length) {
        int r = in.read(out, n, out.length - n);
        if (r < 0) {
          throw new BrokenBody(new EOFException(
              "The GET of " + location + " ended after " + n + " of " + out.length + " bytes"));
        }
        n += r;
      }
    } catch (IOException | SdkException e) {
      throw new BrokenBody(e);
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException | RuntimeException e) {
      // the body was read (or abandoned); closing only releases the connection
    }
  }

  @Override
  public void close() {}

  /** A GET body that broke off, to retry; unchecked so it passes through the retry loop. */
  private static final class BrokenBody extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BrokenBody(Exception cause) {
      super(cause.getMessage(), cause);
    }
  }
}
