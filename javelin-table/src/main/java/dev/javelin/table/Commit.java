package dev.javelin.table;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.io.ObjectExistsException;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Commits one transaction: the one commit loop of the table layer (a template method; what
 * differs per operation lives in {@link ManifestBuilder} and {@link ConflictRules}).
 *
 * <p>Each attempt lists the versions, checks every transaction committed since the last checked
 * version against this one, builds the next manifest on the newest one, and creates it with
 * put-if-absent. Losing the race means another attempt after a randomised, growing backoff.
 *
 * <p>Failure outcomes: {@link CommitConflictException} (a concurrent commit makes this one
 * impossible), {@link CommitFailedException} (attempts exhausted), {@link DatasetExistsException}
 * (a create found a dataset): the transaction file and the files named by
 * {@link #cleanupOnFailure} are deleted. {@link CommitStateUnknownException} (the store failed
 * while creating the manifest): nothing is deleted.
 */
public final class Commit {
  private static final Logger LOG = Logger.getLogger(Commit.class.getName());

  private final Table table;
  private final Transaction txn;
  private final List<String> written = new ArrayList<>();
  private LanceFileVersion newFormat = LanceFileVersion.V2_1;
  private ManifestNaming newNaming = ManifestNaming.V2;
  private boolean createOnly;
  private boolean enableStableRowIds;
  private int maxAttempts = 20;
  private long baseBackoffMillis = 10;
  private long maxBackoffMillis = 2_000;

  Commit(Table table, Transaction txn) {
    this.table = table;
    this.txn = txn;
  }

  /** The data file version of a new or overwritten dataset (default 2.1). */
  public Commit fileVersion(LanceFileVersion version) {
    this.newFormat = version;
    return this;
  }

  /** The manifest naming of a new dataset (default V2); an existing dataset keeps its own. */
  public Commit naming(ManifestNaming naming) {
    this.newNaming = naming;
    return this;
  }

  /** Fail with {@link DatasetExistsException} if any version exists (create, not overwrite). */
  public Commit createOnly() {
    this.createOnly = true;
    return this;
  }

  /**
   * Give a new dataset stable row ids (feature flag 2). An existing dataset keeps what it has: with
   * this option, committing on one without stable row ids fails.
   */
  public Commit enableStableRowIds() {
    this.enableStableRowIds = true;
    return this;
  }

  /** Keys of files this operation wrote, deleted if the commit definitely fails. */
  public Commit cleanupOnFailure(List<String> keys) {
    written.addAll(keys);
    return this;
  }

  /** How many times to try to create the next manifest (default 20). */
  public Commit maxAttempts(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + attempts);
    }
    this.maxAttempts = attempts;
    return this;
  }

  /** Backoff between attempts: random up to base·2^attempt, capped (defaults 10 ms, 2 s). */
  public Commit backoff(long baseMillis, long maxMillis) {
    this.baseBackoffMillis = baseMillis;
    this.maxBackoffMillis = maxMillis;
    return this;
  }

  /**
   * Commits.
   *
   * @return the new version's manifest
   */
  public Manifest commit() {
    ObjectStore store = table.store();
    String txnKey = Table.TRANSACTIONS + txn.fileName();
    boolean cleanup = true;
    try {
      try {
        store.put(txnKey, txn.proto().toByteArray());
      } catch (IOException e) {
        throw new UncheckedIOException("Could not write transaction " + txnKey + " of " + table.location(), e);
      }
      long checkedUpTo = txn.readVersion();
      ObjectExistsException lastLoss = null;
      for (int attempt = 0; attempt < maxAttempts; attempt++) {
        if (attempt > 0) {
          backoff(attempt);
        }
        NavigableMap<Long, String> versions = table.listVersions();
        Manifest latest = null;
        ManifestNaming naming = newNaming;
        if (!versions.isEmpty()) {
          if (createOnly) {
            throw TableErrors.exists(table.location());
          }
          Map.Entry<Long, String> last = versions.lastEntry();
          latest = table.read(last.getValue());
          naming = ManifestNaming.of(last.getValue().substring(Table.VERSIONS.length()));
          long unknown = FeatureFlags.unwritable(latest.writerFeatureFlags());
          if (unknown != 0) {
            throw TableErrors.cannotWrite(table.location(), latest.version(), unknown);
          }
          StableRowIds.checkSupported(txn, latest, table.location());
          if (enableStableRowIds && !StableRowIds.enabled(latest)) {
            throw TableErrors.cannotEnableStableRowIds(table.location(), latest.version());
          }
          checkedUpTo = checkConcurrent(versions, checkedUpTo, latest);
        }
        long newVersion = latest == null ? 1 : latest.version() + 1;
        Manifest next = ManifestBuilder.build(txn, latest, newVersion, newFormat, Instant.now(), table.location(),
            enableStableRowIds);
        String key = naming.key(newVersion);
        byte[] bytes = ManifestFiles.encode(next);
        try {
          store.putIfAbsent(key, bytes);
        } catch (ObjectExistsException e) {
          lastLoss = e;
          continue;
        } catch (IOException | RuntimeException e) {
          cleanup = false;
          throw TableErrors.stateUnknown(table.location(), key, e);
        }
        writeHint(newVersion);
        return next;
      }
      throw TableErrors.retriesExhausted(table.location(), maxAttempts, lastLoss);
    } catch (RuntimeException | Error e) {
      if (cleanup) {
        deleteQuietly(txnKey);
        written.forEach(this::deleteQuietly);
      }
      throw e;
    }
  }

  // Checks every version committed after the last checked one; returns the newest checked.
  private long checkConcurrent(NavigableMap<Long, String> versions, long checkedUpTo, Manifest latest) {
    for (Map.Entry<Long, String> e : versions.tailMap(checkedUpTo, false).entrySet()) {
      long v = e.getKey();
      Manifest m = v == latest.version() ? latest : table.read(e.getValue());
      Transaction theirs = table.transaction(m)
          .orElseThrow(() -> TableErrors.missingTransaction(table.location(), v));
      if (ConflictRules.check(txn, theirs) != ConflictRules.Resolution.COMPATIBLE) {
        throw TableErrors.conflict(table.location(), txn, theirs, v);
      }
    }
    return latest.version();
  }

  private void backoff(int attempt) {
    long cap = Math.min(maxBackoffMillis, baseBackoffMillis << Math.min(attempt, 20));
    if (cap <= 0) {
      return;
    }
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(cap + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommitFailedException("Interrupted while retrying a commit: " + table.location(), e);
    }
  }

  // A hint for other readers (Lance reads it as a starting point). Never needed for correctness.
  private void writeHint(long version) {
    try {
      table.store().put(Table.HINT, ("{\"version\":" + version + "}").getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "Could not write the version hint of " + table.location(), e);
    }
  }

  private void deleteQuietly(String key) {
    try {
      table.store().delete(key);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "Could not delete " + key + " of a failed commit in " + table.location(), e);
    }
  }
}
