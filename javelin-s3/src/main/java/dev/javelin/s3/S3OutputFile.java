package dev.javelin.s3;

import dev.javelin.io.InputFile;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * An object written as a stream: bytes are buffered a part at a time; an object smaller than one
 * part is sent as one PutObject when the stream closes, a larger one as a multipart upload whose
 * parts go up on the store's upload executor while the writer fills the next, at most
 * {@code uploadConcurrency} at once (the writer waits for a free slot, so memory stays within
 * {@code (uploadConcurrency + 1) * partSize}). Closing completes the upload; any failure, or
 * {@link #delete} before the stream is closed, aborts it, so S3 keeps no parts.
 */
final class S3OutputFile implements OutputFile {
  private final S3Clients clients;
  private final String bucket;
  private final String key;
  private final String location;
  private Stream stream;

  S3OutputFile(S3Clients clients, String bucket, String key, String location) {
    this.clients = clients;
    this.bucket = bucket;
    this.key = key;
    this.location = location;
  }

  @Override
  public String location() {
    return location;
  }

  /** Opens the stream; the object appears when it is closed. (Data files have fresh names: not checked.) */
  @Override
  public synchronized PositionOutputStream create() {
    if (stream != null) {
      throw new IllegalStateException("Already created: " + location);
    }
    stream = new Stream();
    return stream;
  }

  /** Aborts an upload still under way, then removes the object if it was written. */
  @Override
  public void delete() throws IOException {
    Stream s;
    synchronized (this) {
      s = stream;
    }
    if (s != null) {
      s.abort(null);
    }
    try {
      clients.client.deleteObject(r -> r.bucket(bucket).key(key));
    } catch (SdkException e) {
      throw S3Errors.io(e, location);
    }
  }

  /** One part's request: sends it and returns its ETag. */
  private interface PartRequest {
    String send(String uploadId, int partNumber);
  }

  private final class Stream extends PositionOutputStream {
    /** The most bytes one UploadPartCopy asks S3 to copy. */
    private static final long COPY_PART = 256L << 20;

    private final long partSize = clients.config.partSize;
    private final Semaphore slots = new Semaphore(clients.config.uploadConcurrency);
    private final List<Future<CompletedPart>> parts = new ArrayList<>();
    private byte[] buffer = new byte[(int) Math.min(partSize, 1 << 16)];
    private int filled;
    private long position;
    private String uploadId;
    private boolean closed;
    private boolean aborted;
    private volatile Throwable failure;

    @Override
    public long position() {
      return position;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      checkOpen();
      try {
        checkParts();
        if (filled == partSize) {
          uploadPart();
        }
        ensureCapacity(filled + 1);
        buffer[filled++] = (byte) b;
        position++;
      } catch (IOException | RuntimeException e) {
        abort(e);
        throw e;
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      checkOpen();
      try {
        checkParts();
        while (len > 0) {
          if (filled == partSize) {
            uploadPart();
          }
          int n = (int) Math.min(len, partSize - filled);
          ensureCapacity(filled + n);
          System.arraycopy(b, off, buffer, filled, n);
          filled += n;
          position += n;
          off += n;
          len -= n;
        }
      } catch (IOException | RuntimeException e) {
        abort(e);
        throw e;
      }
    }

    // The buffer grows up to one part, so a small object costs a small buffer.
    private void ensureCapacity(int size) {
      if (size > buffer.length) {
        byte[] bigger = new byte[(int) Math.min(partSize, Math.max(size, 2L * buffer.length))];
        System.arraycopy(buffer, 0, bigger, 0, filled);
        buffer = bigger;
      }
    }

    private void checkOpen() throws IOException {
      if (aborted) {
        throw new IOException("The upload of " + location + " was aborted", failure);
      }
      if (closed) {
        throw new IOException("Stream closed: " + location);
      }
    }

    // A part that failed fails the stream at its next write or close.
    private void checkParts() throws IOException {
      Throwable f = failure;
      if (f != null) {
        throw new IOException("Uploading a part of " + location + " failed: " + f.getMessage(), f);
      }
    }

    // Sends the buffer as the next part, once a slot is free.
    private void uploadPart() throws IOException {
      byte[] data = buffer;
      int size = filled;
      buffer = new byte[(int) partSize];
      filled = 0;
      submitPart((id, number) -> {
        // An answer cut short may still parse as a 200 without its ETag: send the part again.
        for (int attempt = 1; ; attempt++) {
          UploadPartResponse r = clients.client.uploadPart(p -> p.bucket(bucket).key(key).uploadId(id)
              .partNumber(number).contentLength((long) size), body(data, size));
          if (r.eTag() != null && !r.eTag().isBlank()) {
            return r.eTag();
          }
          if (attempt >= clients.config.maxAttempts()) {
            throw SdkClientException.create("S3 answered part " + number + " of " + location + " without an ETag");
          }
        }
      });
    }

    /**
     * Appends a range of another object of this store by UploadPartCopy where S3 allows it (parts
     * of at least 5 MiB): the buffered bytes are topped up to 5 MiB from the range's start and sent,
     * the range's middle is copied by S3 in parts of up to {@link #COPY_PART} bytes, and its last
     * bytes (under 5 MiB) are read into the buffer. Anything smaller is read and written.
     */
    @Override
    public synchronized void copy(InputFile source, long from, long length) throws IOException {
      long topUp = Math.max(0, S3Config.MIN_PART_SIZE - filled);
      if (!(source instanceof S3InputFile s) || s.clients != clients || length - topUp < S3Config.MIN_PART_SIZE) {
        super.copy(source, from, length);
        return;
      }
      checkOpen();
      try {
        checkParts();
        super.copy(source, from, topUp);
        uploadPart();
        long at = from + topUp;
        long end = from + length;
        while (end - at >= S3Config.MIN_PART_SIZE) {
          long n = Math.min(COPY_PART, end - at);
          if (end - at - n > 0 && end - at - n < S3Config.MIN_PART_SIZE) {
            n = end - at; // a part copied may be larger than 5 MiB: no small part is left to read
          }
          String range = "bytes=" + at + "-" + (at + n - 1);
          submitPart((id, number) -> clients.client.uploadPartCopy(p -> p.sourceBucket(s.bucket).sourceKey(s.key)
              .copySourceRange(range).destinationBucket(bucket).destinationKey(key).uploadId(id)
              .partNumber(number)).copyPartResult().eTag());
          at += n;
          position += n;
        }
        super.copy(source, at, end - at);
      } catch (IOException | RuntimeException e) {
        abort(e);
        throw e;
      }
    }

    /** Sends one part (starting the multipart upload first if need be) on the upload executor. */
    private void submitPart(PartRequest request) throws IOException {
      if (uploadId == null) {
        try {
          uploadId = clients.client.createMultipartUpload(r -> r.bucket(bucket).key(key)).uploadId();
        } catch (SdkException e) {
          throw S3Errors.io(e, location);
        }
      }
      try {
        slots.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while uploading " + location);
      }
      int number = parts.size() + 1;
      String id = uploadId;
      try {
        parts.add(clients.uploads.submit(() -> {
          try {
            return CompletedPart.builder().partNumber(number).eTag(request.send(id, number)).build();
          } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
          } finally {
            slots.release();
          }
        }));
      } catch (RejectedExecutionException e) {
        slots.release();
        throw new IOException("The store is closed: cannot upload " + location, e);
      }
    }

    @Override
    public synchronized void close() throws IOException {
      if (closed) {
        return;
      }
      checkOpen();
      closed = true;
      try {
        checkParts();
        if (uploadId == null) {
          putWhole();
        } else {
          if (filled > 0) {
            uploadPart();
          }
          complete(awaitParts());
        }
      } catch (IOException | RuntimeException e) {
        abort(e);
        throw e;
      }
    }

    private void putWhole() throws IOException {
      byte[] data = buffer;
      int size = filled;
      try {
        clients.client.putObject(r -> r.bucket(bucket).key(key).contentLength((long) size), body(data, size));
      } catch (SdkException e) {
        throw S3Errors.io(e, location);
      }
    }

    private List<CompletedPart> awaitParts() throws IOException {
      List<CompletedPart> done = new ArrayList<>();
      for (Future<CompletedPart> f : parts) {
        try {
          done.add(f.get());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("Interrupted while uploading " + location);
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          throw c instanceof SdkException ? S3Errors.io((SdkException) c, location)
              : new IOException("Uploading a part of " + location + " failed: " + c, c);
        } catch (CancellationException e) {
          throw new IOException("The upload of " + location + " was cancelled", e);
        }
      }
      done.sort(Comparator.comparing(CompletedPart::partNumber));
      return done;
    }

    // A completion whose answer is lost (or cut short, which the SDK does not retry) may have been
    // carried out: the object is then there, of this length (data files have fresh names), and a
    // second completion finds no upload.
    private void complete(List<CompletedPart> done) throws IOException {
      for (int attempt = 1; ; attempt++) {
        try {
          clients.client.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)
              .multipartUpload(u -> u.parts(done)));
          return;
        } catch (SdkException e) {
          if ((S3Errors.notFound(e) || S3Errors.ambiguous(e)) && written()) {
            return;
          }
          // The SDK has retried what it retries; a response it could not read is tried twice more.
          if (S3Errors.status(e) != 0 || !S3Errors.retryable(e) || attempt >= 3) {
            throw S3Errors.io(e, location);
          }
        }
      }
    }

    private boolean written() {
      try {
        HeadObjectResponse h = clients.client.headObject(r -> r.bucket(bucket).key(key));
        return h.contentLength() == position;
      } catch (SdkException e) {
        return false;
      }
    }

    // The bytes of one request, read from the buffer as they are sent (and again on a retry): no copy.
    private RequestBody body(byte[] data, int size) {
      return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, 0, size), size,
          "application/octet-stream");
    }

    /** Stops the upload for good: pending parts are cancelled and S3 drops the parts it has. */
    synchronized void abort(Exception cause) {
      if (aborted) {
        return;
      }
      boolean completed = closed && cause == null;
      aborted = true;
      if (failure == null && cause != null) {
        failure = cause;
      }
      buffer = new byte[0];
      filled = 0;
      if (uploadId == null || completed) {
        return;
      }
      for (Future<CompletedPart> f : parts) {
        f.cancel(false);
      }
      for (Future<CompletedPart> f : parts) {
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        } catch (ExecutionException | CancellationException e) {
          // the part failed or never started: nothing to wait for
        }
      }
      try {
        clients.client.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
      } catch (SdkException e) {
        if (!S3Errors.notFound(e) && cause != null) {
          cause.addSuppressed(e);
        }
      }
    }
  }
}
