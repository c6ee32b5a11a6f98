package dev.javelin.core.internal.scan;

import dev.javelin.common.LeasedCache;
import dev.javelin.core.Session;
import dev.javelin.core.internal.SessionState;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.internal.encoding.PageCache;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.MappedInputFile;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The parsed metadata of data files (footer, column metadata, schema) and the page metadata their
 * decoders load (page layouts, mini-block chunk tables), shared by the takes of a session like
 * Lance's session file metadata cache, so a take of a few rows does not parse its files again.
 * Only metadata is kept, never data pages, and all of it on the heap: an evicted entry holds no
 * file handle or Arrow memory and is simply dropped (readers still using it keep it alive). Local
 * files are read mapped into memory ({@link MappedInputFile}: no file handle, no system call per
 * read; the operating system's page cache holds the bytes), since a take makes one small read per
 * chunk it touches; other stores' files are opened per take. Data files are immutable and
 * uniquely named, but an entry is still checked against the file's length and modification time,
 * so a file replaced under the same name (a dataset deleted and copied back) is parsed anew.
 * Bounded by a number of files and about a number of bytes (a {@link LeasedCache} by weight, each
 * file weighing its estimated bytes, page metadata included, but at least its share of the bytes
 * per file, so that neither bound is passed). Thread-safe.
 */
public final class DataFileCache implements AutoCloseable {
  /** The most page metadata kept for one file. */
  static final long MAX_PAGE_BYTES_PER_FILE = 4L << 20;

  /**
   * Whether local files are mapped into memory. Not on Windows, where a mapped file cannot be
   * deleted until the garbage collector unmaps it (cleanup would fail).
   */
  static final boolean MAP = !System.getProperty("os.name", "").startsWith("Windows");

  private final LeasedCache<String, Entry> entries;

  /** Keeps about {@code maxBytes} bytes of the metadata of at most {@code maxFiles} files. */
  public DataFileCache(long maxBytes, int maxFiles) {
    long least = Math.max(1, maxBytes / maxFiles);
    this.entries = LeasedCache.<String, Entry>builder()
        .maximumWeight(maxBytes, (id, e) -> (int) Math.min(Integer.MAX_VALUE, Math.max(least, e.bytes())))
        .build();
  }

  private final class Entry implements AutoCloseable {
    final FileMetadata metadata;
    final long length;
    final long modified;
    final long metadataBytes;
    // Weighed again as page metadata is added to it.
    final PageCache pages;
    /** The file mapped into memory (shared by every reader; never closed), or null. */
    final MappedInputFile mapped;

    Entry(String id, FileMetadata metadata, long length, long modified, MappedInputFile mapped) {
      this.metadata = metadata;
      this.mapped = mapped;
      this.length = length;
      this.modified = modified;
      long b = 512;
      for (var c : metadata.columns()) {
        b += 64 + 3L * c.getSerializedSize();
      }
      this.metadataBytes = b + 256L * metadata.schema().fields().size();
      this.pages = new PageCache(MAX_PAGE_BYTES_PER_FILE, added -> entries.reweigh(id));
    }

    // Estimated bytes, page metadata included.
    long bytes() {
      return metadataBytes + pages.bytes();
    }

    // Evicted: its page cache keeps no more.
    @Override
    public void close() {
      pages.close();
    }
  }

  /**
   * Opens the data file {@code key} of the dataset at {@code store} for reading with
   * {@code allocator}, with its metadata parsed now or by an earlier open. The caller closes the
   * reader.
   */
  public LanceFileReader open(ObjectStore store, String key, BufferAllocator allocator) throws IOException {
    return open(store, key, 0, allocator);
  }

  /**
   * Opens a data file whose size the manifest records ({@code knownLength}, 0 if it does not): on
   * a remote store then no request asks for its length or date. Data files are written once
   * under fresh names, so their path and size name their metadata; without a recorded size the
   * store's length and modification time do.
   */
  public LanceFileReader open(ObjectStore store, String key, long knownLength, BufferAllocator allocator)
      throws IOException {
    if (MAP && store instanceof LocalObjectStore local) {
      return openMapped(local, key, allocator);
    }
    InputFile file = store.open(key, knownLength);
    try {
      String id = store.location() + "#" + key;
      long length = file.length();
      long modified = knownLength > 0 ? 0 : file.lastModified();
      if (length <= file.blockSize() && store.remote()) {
        // A file no larger than a block is fetched whole: the same round trip as its tail, and
        // its pages are then read from memory instead of with another request each.
        InputFile whole = new ByteArrayInputFile(bytes(file.read(0, (int) length)), file.location());
        file.close();
        file = whole;
      }
      if (modified < 0) {
        // A store that cannot date its files cannot tell a replaced file: nothing is kept.
        return LanceFileReader.open(file, FileMetadata.read(file), null, allocator);
      }
      LeasedCache.Lease<Entry> cached = get(id, length, modified);
      // Parsed outside any lock, so a slow read does not hold up other files.
      try (LeasedCache.Lease<Entry> e = cached != null ? cached
          : entries.put(id, new Entry(id, FileMetadata.read(file), length, modified, null))) {
        return LanceFileReader.open(file, e.value().metadata, e.value().pages, allocator);
      }
    } catch (IOException | RuntimeException ex) {
      file.close();
      throw ex;
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    if (b.hasArray() && b.arrayOffset() == 0 && b.position() == 0 && b.remaining() == b.array().length) {
      return b.array();
    }
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  // A local file is mapped once and read from memory: a take of a few rows makes many small reads.
  private LanceFileReader openMapped(LocalObjectStore store, String key, BufferAllocator allocator)
      throws IOException {
    Path path = store.path(key);
    BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
    String id = store.location() + "#" + key;
    long length = attrs.size();
    long modified = attrs.lastModifiedTime().toMillis();
    LeasedCache.Lease<Entry> cached = get(id, length, modified);
    if (cached == null) {
      MappedInputFile file = MappedInputFile.open(path);
      FileMetadata metadata = FileMetadata.read(file);
      if (file.length() != length) {
        // Replaced between the two looks (never done to data files): read it, keep nothing.
        return LanceFileReader.open(file, metadata, null, allocator);
      }
      cached = entries.put(id, new Entry(id, metadata, length, modified, file));
    }
    try (LeasedCache.Lease<Entry> e = cached) {
      return LanceFileReader.open(e.value().mapped, e.value().metadata, e.value().pages, allocator);
    }
  }

  // A lease on the entry of a file of this length and modification time, or null.
  private LeasedCache.Lease<Entry> get(String id, long length, long modified) {
    LeasedCache.Lease<Entry> l = entries.leaseIfPresent(id);
    if (l != null && (l.value().length != length || l.value().modified != modified)) {
      l.close();
      return null;
    }
    return l;
  }

  /** The number of files whose metadata is kept. */
  public long fileCount() {
    return entries.size();
  }

  /** Forgets every entry. */
  public void invalidateAll() {
    entries.invalidateAll();
  }

  @Override
  public void close() {
    entries.close();
  }

  private static DataFileCache ofDefaultSession() {
    return SessionState.of(Session.defaultSession()).dataFiles();
  }

  /** Forgets every entry of the default session's cache, for tests. */
  static void clear() {
    ofDefaultSession().invalidateAll();
  }

  /** The number of files whose metadata the default session's cache keeps, for tests. */
  static int size() {
    return (int) ofDefaultSession().fileCount();
  }
}
