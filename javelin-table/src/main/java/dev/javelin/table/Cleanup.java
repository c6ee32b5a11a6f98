package dev.javelin.table;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressStage;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.exceptions.CleanupRefusedException;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.exceptions.UnsupportedFeatureException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Removes old versions and the files only they used, with Lance's rules
 * ({@code rust/lance/src/dataset/cleanup.rs}), so that both libraries keep and remove the same:
 *
 * <ul>
 *   <li>A version is kept if it is the newest (at the start), tagged, or the policy spares it.
 *       Kept versions' manifests and every file they reference stay.
 *   <li>A file referenced only by removed versions is "verified" garbage and is removed.
 *   <li>A file referenced by no version at all may belong to a write still running; it is removed
 *       only when older than the grace period (or when the policy says no writer runs).
 *   <li>No file written after the oldest kept version was committed is removed: it may belong to
 *       a commit that is not visible yet.
 * </ul>
 *
 * Only {@code data/*.lance}, {@code _deletions/*.arrow|bin}, {@code _transactions/*.txn},
 * {@code _indices/<uuid>/} and the store's temporary files ({@link ObjectStore#listTemporary}:
 * what a killed writer staged, removed by the grace-period rule alone) are candidates. A version references the directories of its indices and
 * of the row maps its {@code __lance_stable_partition} transitions name. Old manifests are removed before the files, so a crash
 * midway leaves unreferenced files (removed by a later cleanup), never a version with missing files.
 */
public final class Cleanup {
  // S3's DeleteObjects takes up to 1,000 keys a request.
  private static final int DELETE_BATCH = 1000;

  private static final String DATA = "data/";
  private static final String DELETIONS = "_deletions/";
  private static final String INDICES = "_indices/";

  // Every reader flag Lance 7 defines: none changes which files a manifest references beyond
  // what is collected here (files under other base paths are skipped), nor does Javelin's
  // overlay flag (overlay files are collected too). An unknown flag might.
  private static final long LANCE_READER_FLAGS = FeatureFlags.DELETION_FILES | FeatureFlags.STABLE_ROW_IDS
      | FeatureFlags.USE_V2_FORMAT_DEPRECATED | FeatureFlags.TABLE_CONFIG | FeatureFlags.BASE_PATHS
      | FeatureFlags.DISABLE_TRANSACTION_FILE | FeatureFlags.OVERLAYS;

  private final Table table;
  private final CleanupPolicy policy;
  private final Instant now;
  private final Refs referenced = new Refs();
  private final Refs verified = new Refs();
  private final Map<String, Set<String>> rowMaps = new HashMap<>();
  // Counts the files deleted, for the policy's progress listener.
  private ProgressStage deleting;

  private Cleanup(Table table, CleanupPolicy policy, Instant now) {
    this.table = table;
    this.policy = policy;
    this.now = now;
  }

  /** Runs a cleanup now. */
  public static CleanupResult run(Table table, CleanupPolicy policy) {
    return run(table, policy, Instant.now());
  }

  /**
   * Runs a cleanup as if at {@code now} (ages are measured from it).
   *
   * @throws VersionNotFoundException if there is no dataset
   * @throws UnsupportedFeatureException if a version needs reader features Javelin lacks (its
   *     files could not be told apart from garbage)
   * @throws CleanupRefusedException if the policy asks to fail on tagged old versions and would remove one
   * @throws CorruptManifestException if a version the cleanup would keep (the newest, a tagged or a
   *     retained one) cannot be read: its files could not be told apart from garbage. An
   *     unreadable version the policy removes is removed (restore an older version first to
   *     recover from a damaged newest one)
   */
  public static CleanupResult run(Table table, CleanupPolicy policy, Instant now) {
    return new Cleanup(table, policy, now).run();
  }

  private CleanupResult run() {
    NavigableMap<Long, String> versions = table.listVersions();
    if (versions.isEmpty()) {
      throw TableErrors.noDataset(table.location());
    }
    // Tags live at the root and name versions of any branch: only this branch's count here.
    Map<String, TagInfo> tags = new TreeMap<>(Tags.of(table).list());
    tags.values().removeIf(t -> !t.branch().equals(table.branch()));
    Set<Long> tagged = new HashSet<>();
    tags.values().forEach(t -> tagged.add(t.version()));
    Set<Long> branchedFrom = branchedFrom();
    long latest = versions.lastKey();
    long retainFrom = retainFrom(versions);
    Instant before = policy.beforeTimestamp().orElse(null);
    if (policy.olderThan().isPresent()) {
      Instant t = now.minus(policy.olderThan().get());
      before = before == null || t.isBefore(before) ? t : before;
    }

    Map<String, ObjectInfo> manifestFiles = new HashMap<>();
    for (ObjectInfo o : list(Table.VERSIONS)) {
      manifestFiles.put(o.key(), o);
    }
    Map<String, Long> oldManifests = new TreeMap<>();
    List<Long> removed = new ArrayList<>();
    Set<Long> taggedOld = new HashSet<>();
    Instant earliestKept = null;
    for (Map.Entry<Long, String> e : versions.entrySet()) {
      long v = e.getKey();
      Manifest m;
      try {
        m = table.read(e.getValue());
      } catch (CorruptManifestException unreadable) {
        m = null;
      }
      long unknown = m == null ? 0 : m.readerFeatureFlags() & ~LANCE_READER_FLAGS;
      if (unknown != 0) {
        throw TableErrors.cannotRead(table.location(), v, unknown);
      }
      // An unreadable manifest's age is its file's.
      Instant ts = m != null ? m.timestamp().orElse(Instant.EPOCH)
          : Optional.ofNullable(manifestFiles.get(e.getValue())).flatMap(ObjectInfo::lastModified)
              .orElse(Instant.EPOCH);
      boolean old = Long.compareUnsigned(v, latest) < 0 && shouldClean(v, ts, before, retainFrom);
      boolean keep = !old || tagged.contains(v) || branchedFrom.contains(v);
      if (old && tagged.contains(v)) {
        taggedOld.add(v);
      }
      if (m == null && keep) {
        // Its files cannot be told apart from garbage.
        throw TableErrors.cleanupUnreadable(table.location(), v, versions.lowerKey(v));
      }
      if (m != null) {
        // A removed version that cannot be read verifies nothing: the files only it used stay
        // until they are older than the grace period, like any unreferenced file.
        collect(m, keep ? referenced : verified);
      }
      if (keep) {
        earliestKept = earliestKept == null || ts.isBefore(earliestKept) ? ts : earliestKept;
      } else {
        oldManifests.put(e.getValue(), v);
        removed.add(v);
      }
    }
    Map<String, Long> taggedKept = new TreeMap<>();
    tags.forEach((name, t) -> {
      if (taggedOld.contains(t.version())) {
        taggedKept.put(name, t.version());
      }
    });
    if (policy.errorIfTaggedOldVersions() && !taggedOld.isEmpty()) {
      throw TableErrors.taggedOldVersions(table.location(), taggedKept);
    }

    try (ProgressStage stage = ProgressStage.start(policy.progress(), "cleanup", "delete files", -1,
        Progress.Unit.FILES)) {
      deleting = stage;
      return removeFiles(removed, oldManifests, manifestFiles, taggedKept, earliestKept);
    } finally {
      deleting = null;
    }
  }

  // Deletes the old manifests, then every file no kept version uses, then what killed writers left.
  private CleanupResult removeFiles(List<Long> removed, Map<String, Long> oldManifests,
      Map<String, ObjectInfo> manifestFiles, Map<String, Long> taggedKept, Instant earliestKept) {
    ObjectStore store = table.store();
    long bytes = 0;
    // Manifests first: see the class comment.
    deleteBatch(store, new ArrayList<>(oldManifests.keySet()));
    for (String key : oldManifests.keySet()) {
      ObjectInfo o = manifestFiles.get(key);
      bytes += o == null ? 0 : o.size();
    }
    List<String> doomed = new ArrayList<>();

    Instant graceLimit = now.minus(policy.gracePeriod());
    long data = 0;
    long deletions = 0;
    long txns = 0;
    long indexFiles = 0;
    long kept = 0;
    long keptBytes = 0;
    Set<String> indices = new HashSet<>();
    for (ObjectInfo o : list("")) {
      String key = o.key();
      String id = key;
      Set<String> ref;
      Set<String> ver;
      if (key.startsWith(INDICES)) {
        int slash = key.indexOf('/', INDICES.length());
        if (slash < 0) {
          continue;
        }
        id = key.substring(INDICES.length(), slash);
        ref = referenced.indices;
        ver = verified.indices;
      } else if (key.startsWith(DATA) && key.endsWith(".lance")) {
        ref = referenced.data;
        ver = verified.data;
      } else if (key.startsWith(DELETIONS) && (key.endsWith(".arrow") || key.endsWith(".bin"))) {
        ref = referenced.deletions;
        ver = verified.deletions;
      } else if (key.startsWith(Table.TRANSACTIONS) && key.endsWith(".txn")) {
        ref = referenced.txns;
        ver = verified.txns;
      } else {
        continue;
      }
      if (ref.contains(id)) {
        continue;
      }
      boolean newerThanKept = o.lastModified().isEmpty() || o.lastModified().get().isAfter(earliestKept);
      boolean maybeInProgress = newerThanKept
          || (!policy.deleteUnverified() && !o.lastModified().get().isBefore(graceLimit) && !ver.contains(id));
      if (maybeInProgress) {
        kept++;
        keptBytes += o.size();
        continue;
      }
      doomed.add(key);
      bytes += o.size();
      if (ref == referenced.indices) {
        indices.add(id);
        indexFiles++;
      } else if (ref == referenced.data) {
        data++;
      } else if (ref == referenced.deletions) {
        deletions++;
      } else {
        txns++;
      }
    }
    deleteBatch(store, doomed);
    // What killed writers staged but never published: no version can reference it.
    long temporary = 0;
    for (ObjectInfo o : listTemporary()) {
      boolean young = o.lastModified().isEmpty() || !o.lastModified().get().isBefore(graceLimit);
      if (young && !policy.deleteUnverified()) {
        kept++;
        keptBytes += o.size();
        continue;
      }
      delete(store, o.key());
      temporary++;
      bytes += o.size();
    }
    return new CleanupResult(removed, data, deletions, txns, indices.size(), indexFiles, temporary, bytes, kept,
        keptBytes, taggedKept);
  }

  // The versions of this branch that branches were created from, kept as Lance 7 keeps them: a
  // branch refers to the files of that version through a base path. On the main branch that is
  // also where every branch's line of branchings starts (a branch of a branch refers to main's
  // files through the base paths it inherited).
  private Set<Long> branchedFrom() {
    Set<Long> out = new HashSet<>();
    for (BranchInfo b : Branches.of(table).list().values()) {
      if (b.parentBranch().equals(table.branch())) {
        out.add(b.parentVersion());
      }
      if (table.branch().isEmpty() && !b.lineage().isEmpty()) {
        out.add(b.lineage().get(0).version());
      }
    }
    return out;
  }

  // Lance's retain_n_versions: keep the newest n, i.e. clean below the n-th newest version.
  private long retainFrom(NavigableMap<Long, String> versions) {
    if (policy.retainVersions().isEmpty()) {
      return -1;
    }
    int n = policy.retainVersions().getAsInt();
    List<Long> all = new ArrayList<>(versions.keySet());
    return all.size() <= n ? all.get(0) : all.get(all.size() - n);
  }

  private boolean shouldClean(long version, Instant ts, Instant before, long retainFrom) {
    boolean clean = true;
    if (before != null) {
      clean &= ts.isBefore(before);
    }
    if (policy.beforeVersion().isPresent()) {
      clean &= Long.compareUnsigned(version, policy.beforeVersion().getAsLong()) < 0;
    }
    if (retainFrom >= 0) {
      clean &= Long.compareUnsigned(version, retainFrom) < 0;
    }
    return clean;
  }

  private void collect(Manifest m, Refs refs) {
    for (Fragment f : m.fragments()) {
      for (DataFile d : f.files()) {
        if (!d.hasBaseId()) { // files under another base path are not this store's to remove
          refs.data.add(DATA + d.path());
        }
      }
      f.deletionFile().filter(d -> !d.hasBaseId()).ifPresent(d -> refs.deletions.add(d.key(f.id())));
      f.overlays().forEach(o -> refs.data.add(DATA + o.path())); // overlay files live under data/
    }
    if (!m.transactionFile().isEmpty()) {
      refs.txns.add(Table.TRANSACTIONS + m.transactionFile());
    }
    for (IndexMetadata i : m.indices()) {
      if (i.baseId().isPresent()) {
        continue; // another base's, like such data files
      }
      refs.indices.add(uuid(i.uuidBytes().toByteArray()));
      if (i.name().equals(StablePartitionEntry.NAME)) {
        refs.indices.addAll(rowMapDirs(i));
      }
    }
  }

  // The _indices/ directories of the row maps an entry's transitions reference (its spilled
  // details live in its own directory). Entries are shared by many versions: read each once (an
  // entry keeps its uuid as transitions accumulate; the version it was installed at tells them apart).
  private Set<String> rowMapDirs(IndexMetadata entry) {
    return rowMaps.computeIfAbsent(uuid(entry.uuidBytes().toByteArray()) + "@" + entry.datasetVersion(), k -> {
      Set<String> dirs = new HashSet<>();
      try {
        for (StablePartitionTransition t : StablePartitionEntry.transitions(entry, table.store())) {
          String p = t.rowMapPath();
          int slash = p.indexOf('/', INDICES.length());
          if (p.startsWith(INDICES) && slash > 0) {
            dirs.add(p.substring(INDICES.length(), slash));
          }
        }
      } catch (IOException e) {
        // Without the list, a row map in use could look like garbage: stop instead.
        throw new UncheckedIOException("Cleanup could not read the " + StablePartitionEntry.NAME + " entry of "
            + table.location(), e);
      }
      return dirs;
    });
  }

  static String uuid(byte[] b) {
    if (b.length != 16) {
      return "";
    }
    ByteBuffer buf = ByteBuffer.wrap(b);
    return new UUID(buf.getLong(), buf.getLong()).toString();
  }

  private List<ObjectInfo> list(String prefix) {
    try {
      return table.store().list(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list " + table.location() + "/" + prefix, e);
    }
  }

  private List<ObjectInfo> listTemporary() {
    try {
      return table.store().listTemporary("");
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list the temporary files of " + table.location(), e);
    }
  }

  // Deletes in batches (a remote store deletes a batch with one request), reporting progress by batch.
  private void deleteBatch(ObjectStore store, List<String> keys) {
    for (int from = 0; from < keys.size(); from += DELETE_BATCH) {
      List<String> batch = keys.subList(from, Math.min(keys.size(), from + DELETE_BATCH));
      try {
        store.deleteAll(batch);
      } catch (IOException e) {
        throw new UncheckedIOException("Cleanup could not delete " + table.location() + "/" + batch.get(0)
            + (batch.size() > 1 ? " (and " + (batch.size() - 1) + " more files in the same request)" : ""), e);
      }
      if (deleting != null) {
        deleting.advance(batch.size());
      }
    }
  }

  private void delete(ObjectStore store, String key) {
    try {
      store.delete(key);
      if (deleting != null) {
        deleting.advance(1);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cleanup could not delete " + table.location() + "/" + key, e);
    }
  }

  /** Files some set of versions uses. */
  private static final class Refs {
    final Set<String> data = new HashSet<>();
    final Set<String> deletions = new HashSet<>();
    final Set<String> txns = new HashSet<>();
    final Set<String> indices = new HashSet<>();
  }
}
