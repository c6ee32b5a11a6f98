package dev.javelin.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;

/**
 * The storage seam of a dataset: a flat namespace of immutable objects named by relative,
 * '/'-separated keys under one root (the dataset's directory or bucket prefix).
 *
 * <p>Everything the table layer does to storage goes through here, so an S3-style store with
 * conditional PUT (If-None-Match) implements this interface and needs nothing else. The one
 * operation that must be atomic is {@link #putIfAbsent}: it is how a version is committed.
 * Objects are written whole and never modified in place.
 */
public interface ObjectStore extends AutoCloseable {
  /** Where the store is rooted, for error messages. */
  String location();

  /**
   * Lists the objects whose key starts with {@code prefix}, at any depth, in no particular order.
   * An empty list when there are none (a missing directory is not an error).
   */
  List<ObjectInfo> list(String prefix) throws IOException;

  /**
   * Lists the temporary objects under {@code prefix} that a write stages before publishing it
   * under its own name (see {@link LocalObjectStore}): a writer killed midway leaves them
   * behind, and cleanup removes them once older than its grace period. {@link #list} never
   * returns them. Empty for a store whose writes need no staging (the default).
   */
  default List<ObjectInfo> listTemporary(String prefix) throws IOException {
    return List.of();
  }

  /**
   * Opens an object for positional reads. The caller closes it.
   *
   * @throws java.nio.file.NoSuchFileException if there is no such object
   */
  InputFile open(String key) throws IOException;

  /**
   * Opens an object whose length the caller knows (a data file's size as the manifest records
   * it), so that a remote store need not ask for it; {@code length} 0 or less means unknown. The
   * default ignores it.
   *
   * @throws java.nio.file.NoSuchFileException if there is no such object
   */
  default InputFile open(String key, long length) throws IOException {
    return open(key);
  }

  /** Reads a whole object. */
  default byte[] read(String key) throws IOException {
    try (InputFile in = open(key)) {
      long len = in.length();
      if (len > Integer.MAX_VALUE) {
        throw new IOException("Object too large to read whole: " + in.location());
      }
      ByteBuffer b = in.read(0, (int) len);
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    }
  }

  /** Writes a whole object, replacing any object of that key. */
  void put(String key, byte[] data) throws IOException;

  /**
   * Writes a whole object only if no object of that key exists. Atomic: of many writers racing
   * for one key (in any number of processes), exactly one succeeds, and readers never see a
   * partial object.
   *
   * @throws ObjectExistsException if the key is taken
   */
  void putIfAbsent(String key, byte[] data) throws IOException;

  /**
   * Whether a request costs a network round trip (true by default; false for local files): readers
   * then batch and overlap their reads and fetch ahead, which would only cost memory locally.
   */
  default boolean remote() {
    return true;
  }

  /**
   * Whether this store's output streams copy large ranges of its own objects without moving them
   * over the network ({@link PositionOutputStream#copy}; false by default). A binary-copy
   * compaction then reads only its sources' metadata.
   */
  default boolean copiesServerSide() {
    return false;
  }

  /**
   * Whether {@link #putIfAbsent} is atomic on this store (true by default). A store that cannot
   * create an object only if it is absent (an S3-compatible server without {@code If-None-Match},
   * declared with {@code aws_conditional_put=disabled}) is never committed to: with several
   * writers one could overwrite another's version.
   */
  default boolean supportsConditionalPut() {
    return true;
  }

  /**
   * A new object to stream into (data files). It is whole once its stream is closed (an object
   * store shows it only then; a local file may be seen growing); the key must not exist yet. A
   * stream that fails leaves no object, or one that {@link OutputFile#delete} removes.
   */
  OutputFile newOutputFile(String key);

  /** Removes an object; does nothing if it does not exist. (A failed operation's files: {@link PendingFiles}.) */
  void delete(String key) throws IOException;

  /**
   * Removes many objects; keys that do not exist are skipped. A remote store sends them in
   * batches (S3's DeleteObjects takes 1,000 a request); the default deletes one at a time.
   */
  default void deleteAll(Collection<String> keys) throws IOException {
    for (String key : keys) {
      delete(key);
    }
  }

  /** Whether an object of that key exists. */
  boolean exists(String key) throws IOException;

  /**
   * The store rooted at a directory of this one ({@code dir} a relative key prefix without a
   * trailing '/'), as a branch's files under {@code tree/<name>} need.
   *
   * @throws UnsupportedOperationException if this kind of store cannot do that
   */
  default ObjectStore child(String dir) {
    throw new UnsupportedOperationException("This store cannot open a sub-directory (" + dir + "): " + location());
  }

  /**
   * The store at another location this one's kind of client can reach: a branch's or shallow
   * clone's base path, which a manifest names by location ({@link #location()} of the store it
   * was written with). The default gives this store for its own location, a {@link #child} for a
   * location under it, and otherwise opens the location with no storage options; remote stores
   * override it to reach other paths of their bucket with their own client and options.
   *
   * @throws UnsupportedStoreException if the location is of a kind no store on the class path opens
   */
  default ObjectStore resolve(String location) {
    String here = location();
    if (location.equals(here)) {
      return this;
    }
    if (location.startsWith(here + "/")) {
      return child(location.substring(here.length() + 1));
    }
    return ObjectStores.open(location, StorageOptions.none());
  }

  /** The requests this store has sent so far (all zero for a store that does not count). */
  default RequestCounters requests() {
    return RequestCounters.NONE;
  }

  /**
   * Releases the store's clients and connections (nothing for a local store). A store from
   * {@link #child} shares its parent's clients: closing the child does nothing.
   */
  @Override
  default void close() {}
}
