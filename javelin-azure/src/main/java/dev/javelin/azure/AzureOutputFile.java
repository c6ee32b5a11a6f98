package dev.javelin.azure;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockFromUrlOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * A blob written as a stream: bytes are staged as blocks of the store's block size, at most
 * {@code azure_upload_concurrency} of them in flight (so memory stays at a few blocks), and the
 * block list is committed on close with {@code If-None-Match: *} (the key must be new). Before the
 * commit nothing is visible; a stream that failed, or was aborted by {@link #delete}, commits
 * nothing, and its staged blocks expire unseen. An object no larger than one block is one upload.
 */
final class AzureOutputFile implements OutputFile {
  private final AzureObjectStore store;
  private final String key;
  private final BlockBlobClient client;
  private volatile Stream stream;

  AzureOutputFile(AzureObjectStore store, String key, BlockBlobClient client) {
    this.store = store;
    this.key = key;
    this.client = client;
  }

  @Override
  public String location() {
    return store.location() + "/" + key;
  }

  @Override
  public PositionOutputStream create() throws IOException {
    Stream s = new Stream();
    stream = s;
    return s;
  }

  /** Aborts a stream still open (its close then commits nothing) and deletes the blob if it exists. */
  @Override
  public void delete() throws IOException {
    Stream s = stream;
    if (s != null) {
      s.abort();
    }
    store.delete(key);
  }

  private final class Stream extends PositionOutputStream {
    /** Ranges at least this long are copied by the service rather than read and written. */
    private static final long COPY_MIN = 1 << 20;
    /** The most bytes one Put Block From URL copies. */
    private static final long COPY_BLOCK = 100L << 20;
    private final int blockSize = store.shared().config.blockSize;
    private final Semaphore inFlight = new Semaphore(store.shared().config.uploadConcurrency);
    private final String idPrefix = UUID.randomUUID().toString().substring(0, 8) + "-";
    private final List<String> blockIds = new ArrayList<>();
    private final List<Future<?>> uploads = new ArrayList<>();
    private byte[] buffer;
    private int filled;
    private long position;
    private volatile IOException failure;
    private volatile boolean aborted;
    private boolean closed;

    Stream() {
      buffer = new byte[Math.min(blockSize, 64 << 10)];
    }

    @Override
    public long position() {
      return position;
    }

    private void checkOpen() throws IOException {
      if (closed || aborted) {
        throw new IOException("Stream closed: " + location());
      }
      checkFailure();
    }

    private void checkFailure() throws IOException {
      IOException f = failure;
      if (f != null) {
        throw new IOException("An earlier block of " + location() + " failed to upload", f);
      }
    }

    @Override
    public void write(int b) throws IOException {
      checkOpen();
      if (filled == buffer.length) {
        makeRoom();
      }
      buffer[filled++] = (byte) b;
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      checkOpen();
      while (len > 0) {
        if (filled == buffer.length) {
          makeRoom();
        }
        int n = Math.min(len, buffer.length - filled);
        System.arraycopy(b, off, buffer, filled, n);
        filled += n;
        off += n;
        len -= n;
        position += n;
      }
    }

    /** Grows the buffer up to a block (small files stay small), or stages a full block. */
    private void makeRoom() throws IOException {
      if (buffer.length < blockSize) {
        byte[] bigger = new byte[(int) Math.min(blockSize, 2L * buffer.length)];
        System.arraycopy(buffer, 0, bigger, 0, filled);
        buffer = bigger;
      } else {
        stage(buffer, filled);
        buffer = new byte[blockSize];
        filled = 0;
      }
    }

    private void stage(byte[] data, int length) throws IOException {
      BinaryData body = BinaryData.fromBytes(length == data.length ? data : Arrays.copyOf(data, length));
      stage("upload a block of ", id -> client.stageBlockWithResponse(new BlockBlobStageBlockOptions(id, body), null,
          Context.NONE));
    }

    /**
     * Appends a range of a blob of this store by Put Block From URL, in blocks of up to
     * {@link #COPY_BLOCK} bytes, after staging the bytes buffered so far; ranges under
     * {@link #COPY_MIN} bytes, and other stores' files, are read and written.
     */
    @Override
    public void copy(InputFile source, long from, long length) throws IOException {
      String url = length >= COPY_MIN && source instanceof AzureInputFile a && a.store.shared() == store.shared()
          ? store.copySourceUrl(a.client) : null;
      if (url == null) {
        super.copy(source, from, length);
        return;
      }
      checkOpen();
      if (filled > 0) {
        stage(buffer, filled);
        buffer = new byte[Math.min(blockSize, 64 << 10)];
        filled = 0;
      }
      for (long at = from; at < from + length; ) {
        BlobRange range = new BlobRange(at, Math.min(COPY_BLOCK, from + length - at));
        stage("copy a block into ", id -> client.stageBlockFromUrlWithResponse(
            new BlockBlobStageBlockFromUrlOptions(id, url).setSourceRange(range), null, Context.NONE));
        at += range.getCount();
        position += range.getCount();
      }
    }

    /** Stages the next block on the store's executor, at most {@code uploadConcurrency} at once. */
    private void stage(String what, Consumer<String> request) throws IOException {
      try {
        inFlight.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while uploading " + location());
      }
      checkFailureReleasing();
      String id = Base64.getEncoder().encodeToString(
          (idPrefix + String.format("%08d", blockIds.size())).getBytes(StandardCharsets.US_ASCII));
      blockIds.add(id);
      try {
        uploads.add(store.shared().executor.submit(() -> {
          try {
            if (!aborted && failure == null) {
              request.accept(id);
            }
          } catch (BlobStorageException e) {
            failure = store.failure(e, what + location(), key);
          } catch (RuntimeException e) {
            failure = store.failure(e, what + location());
          } finally {
            inFlight.release();
          }
          return null;
        }));
      } catch (RejectedExecutionException e) {
        inFlight.release();
        throw new IOException("Store closed: " + location(), e);
      }
    }

    private void checkFailureReleasing() throws IOException {
      try {
        checkFailure();
      } catch (IOException e) {
        inFlight.release();
        throw e;
      }
    }

    void abort() {
      aborted = true;
    }

    @Override
    public void close() throws IOException {
      if (closed || aborted) {
        closed = true;
        return;
      }
      closed = true;
      if (failure != null) {
        throw new IOException("A block of " + location() + " failed to upload; nothing was written", failure);
      }
      BlobRequestConditions isNew = new BlobRequestConditions().setIfNoneMatch("*");
      if (blockIds.isEmpty()) {
        store.upload(key, Arrays.copyOf(buffer, filled), isNew);
        return;
      }
      if (filled > 0) {
        stage(buffer, filled);
      }
      buffer = null;
      AzureObjectStore.await(uploads, "upload " + location());
      if (failure != null) {
        throw new IOException("A block of " + location() + " failed to upload; nothing was written", failure);
      }
      if (aborted) {
        return;
      }
      try {
        client.commitBlockListWithResponse(new BlockBlobCommitBlockListOptions(blockIds).setRequestConditions(isNew),
            null, Context.NONE);
      } catch (BlobStorageException e) {
        if (AzureObjectStore.isTaken(e)) {
          throw new ObjectExistsException(store.location(), key);
        }
        throw store.failure(e, "commit " + location(), key);
      } catch (RuntimeException e) {
        throw store.failure(e, "commit " + location());
      }
    }
  }
}
