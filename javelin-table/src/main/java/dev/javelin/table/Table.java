package dev.javelin.table;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.exceptions.DatasetExistsException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.exceptions.UnsupportedFeatureException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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

  /** Where branches keep their versions: {@code tree/<branch name>/} under the dataset's root. */
  static final String BRANCH_DIR = "tree/";

  private final ObjectStore store;
  // The main branch's table and this table's branch name; null for the main branch itself.
  private final Table main;
  private final String branch;
  // The newest manifest this table has read or committed: a commit's first guess at the newest
  // version, so that committing on the version just read needs no listing (as Lance commits).
  private volatile Known known;

  /**
   * A manifest, the key it was read from or created at, and the transaction that made it when
   * this table committed it (else null: read when asked for).
   */
  record Known(String key, Manifest manifest, Transaction transaction) {}

  private Table(ObjectStore store, Table main, String branch) {
    this.store = store;
    this.main = main;
    this.branch = branch;
  }

  /** The dataset rooted at the store (it need not exist yet), on its main branch. */
  public static Table at(ObjectStore store) {
    return new Table(store, null, null);
  }

  /**
   * The table of a branch whose store is already open ({@code store} at
   * {@code <main>/tree/<branch>}), for a dataset opened at a branch's own location.
   */
  public static Table branchAt(ObjectStore main, String branch, ObjectStore store) {
    return new Table(store, at(main), branch);
  }

  /** This table's branch; empty on the main branch. */
  public Optional<String> branch() {
    return Optional.ofNullable(branch);
  }

  /** The main branch's table (this one on the main branch): where tags and branch records live. */
  public Table main() {
    return main == null ? this : main;
  }

  /**
   * The table of a branch of this dataset (its versions under {@code tree/<name>/}); the main
   * table for {@code null}. Whether the branch exists is not checked here (see {@link Branches}).
   */
  public Table branch(String name) {
    if (name == null) {
      return main();
    }
    return new Table(main().store.child(BRANCH_DIR + name), main(), name);
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

  /** The size in bytes of a version's manifest file (tags and branch records note it). */
  long manifestSize(long version) {
    String key = listVersions().get(version);
    if (key == null) {
      throw exists() ? TableErrors.noVersion(location(), version) : TableErrors.noDataset(location());
    }
    try {
      for (ObjectInfo o : store.list(key)) {
        if (o.key().equals(key)) {
          return o.size();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list " + key + " of " + location(), e);
    }
    throw TableErrors.noVersion(location(), version);
  }

  /** Reads a manifest file without checking its flags (conflict checks need every version). */
  public Manifest read(String key) {
    try {
      Manifest m = ManifestFiles.decode(store.read(key), store.location() + "/" + key);
      remember(key, m, null);
      return m;
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
    Known k = known;
    if (k != null && k.manifest() == m && k.transaction() != null) {
      return Optional.of(k.transaction());
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

  /**
   * Shallow-clones one version of this table into {@code target}, which must hold no dataset:
   * commits the target's first version (numbered as the source version), which refers to this
   * table's files through a base path instead of copying them.
   *
   * @param branchName the target's branch name (for a branch of this dataset), or null
   * @return the target's first version
   * @throws DatasetExistsException if the target holds a dataset
   * @throws VersionNotFoundException if there is no such version here
   */
  public Manifest shallowClone(Table target, long version, String branchName) {
    Manifest source = load(version);
    Transaction txn = Transaction.shallowClone(source, location(), branch, branchName);
    return target.newCommit(txn).createOnly().commit();
  }

  /**
   * The table of a store that holds a branch's versions ({@code <main>/tree/<branch>}), found
   * from the store's location; the store on its own (as a main branch) when its location is not
   * of that shape.
   */
  public static Table ofBranchStore(ObjectStore store, String branch) {
    if (!(store instanceof LocalObjectStore)) {
      String suffix = "/tree/" + branch;
      String here = store.location();
      if (here.endsWith(suffix) && here.length() > suffix.length()) {
        return branchAt(store.resolve(here.substring(0, here.length() - suffix.length())), branch, store);
      }
    } else {
      Path root = ((LocalObjectStore) store).root();
      Path up = root;
      for (int i = branch.split("/").length; i > 0 && up != null; i--) {
        up = up.getParent();
      }
      if (up != null && up.getFileName() != null && up.getFileName().toString().equals("tree")
          && up.resolve(branch).normalize().equals(root) && up.getParent() != null) {
        return branchAt(new LocalObjectStore(up.getParent()), branch, store);
      }
    }
    return at(store);
  }

  // Keeps the manifest if it is the newest seen. Manifests are never rewritten in place (each is
  // created once, if absent), so a key's manifest stays what it was.
  void remember(String key, Manifest m, Transaction transaction) {
    Known k = known;
    if (k == null || Long.compareUnsigned(m.version(), k.manifest().version()) >= 0) {
      known = new Known(key, m, transaction);
    }
  }

  /** The newest manifest read or committed through this table, or null. */
  Known known() {
    return known;
  }

  /** Starts a commit of a transaction; configure it, then call {@link Commit#commit()}. */
  public Commit newCommit(Transaction transaction) {
    return new Commit(this, transaction);
  }
}
