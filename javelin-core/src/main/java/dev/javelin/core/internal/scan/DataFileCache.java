package dev.javelin.core.internal.scan;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.internal.encoding.PageCache;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.MappedInputFile;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The parsed metadata of data files (footer, column metadata, schema) and the page metadata their
 * decoders load (page layouts, mini-block chunk tables), shared by the takes of a process like
 * Lance's session file metadata cache, so a take of a few rows does not parse its files again.
 * Only metadata is kept, never data pages, and all of it on the heap: an evicted entry holds no
 * file handle or Arrow memory and is simply dropped (readers still using it keep it alive). Local
 * files are read mapped into memory ({@link MappedInputFile}: no file handle, no system call per
 * read; the operating system's page cache holds the bytes), since a take makes one small read per
 * chunk it touches; other stores' files are opened per take. Data files are immutable and
 * uniquely named, but an entry is still checked against the file's length and modification time,
 * so a file replaced under the same name (a dataset deleted and copied back) is parsed anew.
 * Bounded by {@value #MAX_FILES} files and about {@value #MAX_BYTES} bytes, least recently used
 * first out. Thread-safe.
 */
final class DataFileCache {
  static final int MAX_FILES = 1024;
  static final long MAX_BYTES = 64L << 20;
  /** The most page metadata kept for one file. */
  static final long MAX_PAGE_BYTES_PER_FILE = 4L << 20;

  /**
   * Whether local files are mapped into memory. Not on Windows, where a mapped file cannot be
   * deleted until the garbage collector unmaps it (cleanup would fail).
   */
  static final boolean MAP = !System.getProperty("os.name", "").startsWith("Windows");

  private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>(64, 0.75f, true);
  // Estimated bytes of every entry, page metadata included (page caches add to it as they grow).
  private static final AtomicLong BYTES = new AtomicLong();

  private DataFileCache() {}

  private static final class Entry {
    final FileMetadata metadata;
    final long length;
    final long modified;
    final long metadataBytes;
    final PageCache pages = new PageCache(MAX_PAGE_BYTES_PER_FILE, BYTES::addAndGet);
    /** The file mapped into memory (shared by every reader; never closed), or null. */
    final MappedInputFile mapped;

    Entry(FileMetadata metadata, long length, long modified, MappedInputFile mapped) {
      this.metadata = metadata;
      this.mapped = mapped;
      this.length = length;
      this.modified = modified;
      long b = 512;
      for (var c : metadata.columns()) {
        b += 64 + 3L * c.getSerializedSize();
      }
      this.metadataBytes = b + 256L * metadata.schema().fields().size();
    }

    // Forgets the entry's bytes; its page cache keeps no more.
    void drop() {
      BYTES.addAndGet(-(metadataBytes + pages.close()));
    }
  }

  /**
   * Opens the data file {@code key} of the dataset at {@code store} for reading with
   * {@code allocator}, with its metadata parsed now or by an earlier open. The caller closes the
   * reader.
   */
  static LanceFileReader open(ObjectStore store, String key, BufferAllocator allocator) throws IOException {
    if (MAP && store instanceof LocalObjectStore local) {
      return openMapped(local, key, allocator);
    }
    InputFile file = store.open(key);
    try {
      String id = store.location() + "#" + key;
      long length = file.length();
      long modified = file.lastModified();
      if (modified < 0) {
        // A store that cannot date its files cannot tell a replaced file: nothing is kept.
        return LanceFileReader.open(file, FileMetadata.read(file), null, allocator);
      }
      Entry e = get(id, length, modified);
      if (e == null) {
        // Parsed outside the lock, so a slow read does not hold up other files.
        e = new Entry(FileMetadata.read(file), length, modified, null);
        put(id, e);
      }
      return LanceFileReader.open(file, e.metadata, e.pages, allocator);
    } catch (IOException | RuntimeException ex) {
      file.close();
      throw ex;
    }
  }

  // A local file is mapped once and read from memory: a take of a few rows makes many small reads.
  private static LanceFileReader openMapped(LocalObjectStore store, String key, BufferAllocator allocator)
      throws IOException {
    Path path = store.path(key);
    BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
    String id = store.location() + "#" + key;
    long length = attrs.size();
    long modified = attrs.lastModifiedTime().toMillis();
    Entry e = get(id, length, modified);
    if (e == null) {
      MappedInputFile file = MappedInputFile.open(path);
      FileMetadata metadata = FileMetadata.read(file);
      if (file.length() != length) {
        // Replaced between the two looks (never done to data files): read it, keep nothing.
        return LanceFileReader.open(file, metadata, null, allocator);
      }
      e = new Entry(metadata, length, modified, file);
      put(id, e);
    }
    return LanceFileReader.open(e.mapped, e.metadata, e.pages, allocator);
  }

  // The entry of a file of this length and modification time, or null.
  private static Entry get(String id, long length, long modified) {
    Entry e;
    synchronized (ENTRIES) {
      e = ENTRIES.get(id);
    }
    if (e == null || e.length != length || e.modified != modified) {
      return null;
    }
    if (BYTES.get() > MAX_BYTES) {
      trim(); // page metadata grew past the bound since the last put
    }
    return e;
  }

  private static void put(String id, Entry fresh) {
    synchronized (ENTRIES) {
      Entry old = ENTRIES.put(id, fresh);
      if (old != null) {
        old.drop();
      }
      BYTES.addAndGet(fresh.metadataBytes);
      trim();
    }
  }

  // Drops least recently used entries (all but the newest) while the cache is over a bound.
  private static void trim() {
    synchronized (ENTRIES) {
      Iterator<Entry> it = ENTRIES.values().iterator();
      while (ENTRIES.size() > 1 && (ENTRIES.size() > MAX_FILES || BYTES.get() > MAX_BYTES)) {
        Entry eldest = it.next();
        it.remove();
        eldest.drop();
      }
    }
  }

  /** Forgets every entry. */
  static void clear() {
    synchronized (ENTRIES) {
      ENTRIES.values().forEach(Entry::drop);
      ENTRIES.clear();
    }
  }

  /** The number of files whose metadata is kept, for tests. */
  static int size() {
    synchronized (ENTRIES) {
      return ENTRIES.size();
    }
  }
}
