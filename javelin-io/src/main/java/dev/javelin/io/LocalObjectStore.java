package dev.javelin.io;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * An {@link ObjectStore} over a local directory. Keys map to relative paths.
 *
 * <p>{@link #putIfAbsent} writes the bytes to a hidden temporary file in the target's directory,
 * forces them to disk, then hard-links the temporary file to the target name. {@code link(2)}
 * fails if the name exists, atomically, across processes, and the linked file is already
 * complete, so no reader sees a partial manifest. (A rename would silently replace an existing
 * target on POSIX.) Where hard links are not supported, it falls back to an exclusive create,
 * which is still atomic about who wins but lets a reader see a partly written object.
 *
 * <p>Durability: by default nothing is forced to disk (as Lance's local store does), so after an
 * operating system crash the newest commits may be lost. {@code new LocalObjectStore(root, true)}
 * forces every object and data file to disk before it is published or closed, at the cost of a
 * few milliseconds per file (commits then reach tens rather than hundreds per second).
 */
public final class LocalObjectStore implements ObjectStore {
  private static final String TEMP_PREFIX = ".tmp-";

  private final Path root;
  private final boolean sync;

  /** A store that does not force writes to disk. */
  public LocalObjectStore(Path root) {
    this(root, false);
  }

  /** A store that forces every write to disk ({@code sync}) or none. */
  public LocalObjectStore(Path root, boolean sync) {
    this.root = root.toAbsolutePath().normalize();
    this.sync = sync;
  }

  /**
   * The directory a local path or {@code file:} URI names.
   *
   * @throws IllegalArgumentException for any other URI scheme
   */
  public static Path pathOf(String uri) {
    if (uri.startsWith("file:")) {
      return Paths.get(URI.create(uri));
    }
    if (!ObjectStores.isLocal(uri)) {
      throw new IllegalArgumentException("Not a local path or file: URI: " + uri);
    }
    return Paths.get(uri);
  }

  /** A store at a local path or {@code file:} URI (see {@link #pathOf}). */
  public static LocalObjectStore forUri(String uri) {
    return new LocalObjectStore(pathOf(uri));
  }

  /** The local store at a local path or {@code file:} URI (a base path of a branch or clone). */
  @Override
  public ObjectStore resolve(String location) {
    return forUri(location);
  }

  @Override
  public LocalObjectStore child(String dir) {
    return new LocalObjectStore(path(dir), sync);
  }

  /** The directory this store is rooted at. */
  public Path root() {
    return root;
  }

  @Override
  public String location() {
    return root.toString();
  }

  /** The local path of a key. */
  public Path path(String key) {
    if (key.isEmpty() || key.startsWith("/") || key.contains("..") || key.contains("\\")) {
      throw new IllegalArgumentException("Invalid object key '" + key + "' in " + root);
    }
    return root.resolve(key);
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return listing(prefix, false);
  }

  /**
   * The {@code .tmp-<name>-<uuid>} files {@link #put} and {@link #putIfAbsent} stage next to
   * their target (manifests, the version hint, transactions, tags...), which only a killed writer
   * leaves behind.
   */
  @Override
  public List<ObjectInfo> listTemporary(String prefix) throws IOException {
    return listing(prefix, true);
  }

  private List<ObjectInfo> listing(String prefix, boolean temporary) throws IOException {
    // Walk only the deepest directory the prefix names, then filter by the rest of it.
    int slash = prefix.lastIndexOf('/');
    Path dir = slash < 0 ? root : root.resolve(prefix.substring(0, slash));
    List<ObjectInfo> out = new ArrayList<>();
    walk(dir, prefix, temporary, out);
    return out;
  }

  // Other writers create and delete files while we list (temporary files above all), so a
  // file or directory that vanishes between being listed and being looked at is skipped.
  // Lists either the published files or only the temporary ones.
  private void walk(Path dir, String prefix, boolean temporary, List<ObjectInfo> out) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        boolean isTemporary = p.getFileName().toString().startsWith(TEMP_PREFIX);
        if (isTemporary && !temporary) {
          continue;
        }
        BasicFileAttributes attrs;
        try {
          attrs = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          continue;
        }
        String key = root.relativize(p).toString().replace(File.separatorChar, '/');
        if (attrs.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(key + "/")) {
            walk(p, prefix, temporary, out);
          }
        } else if (attrs.isRegularFile() && key.startsWith(prefix) && isTemporary == temporary) {
          out.add(new ObjectInfo(key, attrs.size(), attrs.lastModifiedTime().toInstant()));
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      // the directory itself is gone (or never existed): nothing under it
    }
  }

  @Override
  public InputFile open(String key) throws IOException {
    return LocalInputFile.open(path(key));
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    Path target = path(key);
    Path temp = writeTemp(target, data);
    try {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    Path target = path(key);
    if (Files.exists(target)) {
      throw new ObjectExistsException(location(), key);
    }
    Path temp = writeTemp(target, data);
    try {
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new ObjectExistsException(location(), key);
    } catch (UnsupportedOperationException e) {
      createExclusive(key, target, data);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private void createExclusive(String key, Path target, byte[] data) throws IOException {
    try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW)) {
      out.write(data);
    } catch (FileAlreadyExistsException e) {
      throw new ObjectExistsException(location(), key);
    }
  }

  private Path writeTemp(Path target, byte[] data) throws IOException {
    Files.createDirectories(target.getParent());
    Path temp = target.resolveSibling(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
    try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.wrap(data);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      if (sync) {
        ch.force(true);
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    return temp;
  }

  @Override
  public OutputFile newOutputFile(String key) {
    Path target = path(key);
    try {
      Files.createDirectories(target.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create directory for " + target, e);
    }
    return new LocalOutputFile(target, sync);
  }

  @Override
  public void delete(String key) throws IOException {
    Files.deleteIfExists(path(key));
  }

  @Override
  public boolean remote() {
    return false;
  }

  @Override
  public boolean exists(String key) throws IOException {
    return Files.isRegularFile(path(key));
  }
}
