package dev.javelin.table;

import dev.javelin.table.io.ObjectInfo;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The versions of one dataset in an {@link ObjectStore}: listing, loading and committing
 * manifests. This is the narrow seam everything above runs on (Iceberg's TableOperations).
 *
 * <p>The newest version is always found by listing {@code _versions/}; the hint file is written
 * for other readers but never trusted.
 */
public final class Table {
  static final String VERSIONS = "_versions/";
  static final String TRANSACTIONS = "_transactions/";
  static final String HINT = VERSIONS + "latest_version_hint.json";

  private final ObjectStore store;

  private Table(ObjectStore store) {
    this.store = store;
  }

  /** The dataset rooted at the store (it need not exist yet). */
  public static Table at(ObjectStore store) {
    return new Table(store);
  }

  public ObjectStore store() {
    return store;
  }

  public String location() {
    return store.location();
  }

  /** Every version, ascending, with the key of its manifest. Detached and foreign files are ignored. */
  public NavigableMap<Long, String> listVersions() {
    NavigableMap<Long, String> out = new TreeMap<>(Long::compareUnsigned);
    try {
      for (ObjectInfo o : store.list(VERSIONS)) {
        if (o.key().indexOf('/', VERSIONS.length()) >= 0) {
          continue;
        }
        ManifestNaming.version(o.name()).ifPresent(v -> out.put(v, o.key()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list versions of " + location(), e);
    }
    return Collections.unmodifiableNavigableMap(out);
  }

  /** Whether any version exists. */
  public boolean exists() {
    return !listVersions().isEmpty();
  }

  /**
   * The newest version.
   *
   * @throws VersionNotFoundException if there is no dataset
   * @throws UnsupportedFeatureException if it needs reader features Javelin lacks
   */
  public Manifest latest() {
    NavigableMap<Long, String> versions = listVersions();
    if (versions.isEmpty()) {
      throw TableErrors.noDataset(location());
    }
    return checkReadable(read(versions.lastEntry().getValue()));
  }

  /**
   * One version.
   *
   * @throws VersionNotFoundException if there is no such version
   * @throws UnsupportedFeatureException if it needs reader features Javelin lacks
   */
  public Manifest load(long version) {
    String key = listVersions().get(version);
    if (key == null) {
      if (!exists()) {
        throw TableErrors.noDataset(location());
      }
      throw TableErrors.noVersion(location(), version);
    }
    return checkReadable(read(key));
  }

  private Manifest checkReadable(Manifest m) {
    long unknown = FeatureFlags.unreadable(m.readerFeatureFlags());
    if (unknown != 0) {
      throw TableErrors.cannotRead(location(), m.version(), unknown);
    }
    return m;
  }

  /** The naming scheme the dataset uses (of its newest manifest), or empty if there is none. */
  public Optional<ManifestNaming> naming() {
    NavigableMap<Long, String> versions = listVersions();
    if (versions.isEmpty()) {
      return Optional.empty();
    }
    String key = versions.lastEntry().getValue();
    return Optional.of(ManifestNaming.of(key.substring(VERSIONS.length())));
  }

  /** Reads a manifest file without checking its flags (conflict checks need every version). */
  Manifest read(String key) {
    try {
      return ManifestFiles.decode(store.read(key), store.location() + "/" + key);
    } catch (NoSuchFileException e) {
      throw new VersionNotFoundException("Manifest disappeared while reading (cleaned up?): "
          + store.location() + "/" + key);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read " + store.location() + "/" + key, e);
    }
  }

  /**
   * The transaction that produced a version: the inline one, else the {@code _transactions/} file
   * the manifest names; empty if neither exists.
   */
  public Optional<Transaction> transaction(Manifest m) {
    if (m.inlineTransaction().isPresent()) {
      return m.inlineTransaction();
    }
    if (m.transactionFile().isEmpty()) {
      return Optional.empty();
    }
    String key = TRANSACTIONS + m.transactionFile();
    try {
      return Optional.of(Transaction.parse(store.read(key), store.location() + "/" + key));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read " + store.location() + "/" + key, e);
    }
  }

  /** Starts a commit of a transaction; configure it, then call {@link Commit#commit()}. */
  public Commit newCommit(Transaction transaction) {
    return new Commit(this, transaction);
  }
}
