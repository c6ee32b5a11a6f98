package dev.javelin.table;

import dev.javelin.common.Json;
import dev.javelin.common.Tasks;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.CommitFailedException;
import dev.javelin.table.exceptions.CommitStateUnknownException;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.DatasetExistsException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.rowids.StableRowIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(Commit.class);

  private final Table table;
  private Transaction txn;
  private Rebase rebase;
  // The transaction file and the files of cleanupOnFailure and of rebases: kept once the manifest is created.
  private final PendingFiles written;
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
    this.written = new PendingFiles(table.store());
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
   * Rewrites a transaction so it commits on top of concurrent ones that {@link ConflictRules}
   * judged rebasable (for a delete: merging deletion vectors of fragments both changed). The
   * commit loop calls it with those transactions and the newest manifest; the manifest is then
   * built from what it returns, so {@link ManifestBuilder} stays a pure function.
   */
  public interface Rebase {
    /**
     * @param mine the transaction as last attempted
     * @param committed the concurrent transactions to rebase over, oldest first
     * @param latest the newest manifest, which the result is built on
     * @return the transaction to commit instead (read version {@code latest.version()}) and the
     *     files the rebase wrote and superseded
     * @throws CommitConflictException if the transactions cannot be reconciled
     */
    Rebased rebase(Transaction mine, List<Transaction> committed, Manifest latest);
  }

  /**
   * A rebased transaction, the keys of the files written for it (deleted if the commit fails),
   * and the keys of files written for an earlier attempt that it no longer uses (deleted now).
   */
  public static final class Rebased {
    public final Transaction transaction;
    public final List<String> written;
    public final List<String> superseded;

    public Rebased(Transaction transaction, List<String> written, List<String> superseded) {
      this.transaction = transaction;
      this.written = List.copyOf(written);
      this.superseded = List.copyOf(superseded);
    }
  }

  /** How to rebase over rebasable concurrent commits; without it they are conflicts. */
  public Commit rebase(Rebase step) {
    this.rebase = step;
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
    try (written) {
      if (!table.store().supportsConditionalPut()) {
        throw TableErrors.noConditionalPut("commit to", table.location(), "versions");
      }
      writeTransaction();
      long[] checkedUpTo = {txn.readVersion()};
      // Backoff before attempt n+1: random up to base·2^n (the first retry up to 2·base), capped.
      return Tasks.retry().maxAttempts(maxAttempts).retryOn(ManifestTaken.class)
          .backoff(Duration.ofMillis(Math.max(0, Math.min(baseBackoffMillis, Long.MAX_VALUE / 2)) * 2),
              Duration.ofMillis(Math.max(0, maxBackoffMillis)))
          .jitter(1)
          .onGiveUp((attempts, last) -> TableErrors.retriesExhausted(table.location(), attempts, last.getCause()))
          .onInterrupt(e -> new CommitFailedException("Interrupted while retrying a commit: " + table.location(), e))
          .run(attempt -> attempt(checkedUpTo, attempt));
    }
  }

  /** Another writer created the manifest of the version an attempt meant to create: try again. */
  private static final class ManifestTaken extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ManifestTaken(ObjectExistsException cause) {
      super(cause.getMessage(), cause);
    }
  }

  // One attempt: checks what was committed since the last checked version, builds the next
  // manifest on the newest one and creates it. Once it is created, and if the store fails
  // creating it (the commit may have landed), the written files are kept. The first attempt
  // starts from the newest manifest this table knows, when that is the version the transaction
  // read or the one after it (this writer's own previous commit, say): it just tries to create
  // the next version, with no listing and no reading, as Lance commits. Only if another writer
  // took that version does it list what was committed.
  private Manifest attempt(long[] checkedUpTo, int attempt) {
    Table.Known known = attempt == 1 && !createOnly ? table.known() : null;
    ManifestNaming knownNaming = known == null ? null
        : ManifestNaming.of(known.key().substring(known.key().lastIndexOf('/') + 1));
    boolean guess = knownNaming != null && known.manifest().version() >= checkedUpTo[0]
        && known.manifest().version() - checkedUpTo[0] <= 1;
    while (true) {
      NavigableMap<Long, String> versions;
      if (guess) {
        versions = new TreeMap<>(Long::compareUnsigned);
        versions.put(known.manifest().version(), known.key());
      } else {
        versions = table.listVersions();
      }
      Manifest latest = null;
      ManifestNaming naming = newNaming;
      if (!versions.isEmpty()) {
        if (createOnly) {
          throw TableErrors.exists(table.location());
        }
        Map.Entry<Long, String> last = versions.lastEntry();
        latest = readNewest(last.getValue());
        naming = ManifestNaming.of(last.getValue().substring(Table.VERSIONS.length()));
        if (latest != null) {
          checkWritable(latest);
        }
        checkedUpTo[0] = checkConcurrent(versions, checkedUpTo[0], last.getKey(), latest);
      }
      // A clone starts at its source's version number, as Lance's does.
      long newVersion = !versions.isEmpty() ? versions.lastKey() + 1
          : txn.kind() == OperationKind.CLONE ? txn.readVersion() : 1;
      try {
        return create(latest, newVersion, naming);
      } catch (ManifestTaken e) {
        if (!guess) {
          throw e;
        }
        LOG.debug("Version {} of {} was taken; listing what was committed", newVersion, table.location());
        guess = false;
      }
    }
  }

  private void checkWritable(Manifest latest) {
    long unknown = FeatureFlags.unwritable(latest.writerFeatureFlags());
    if (unknown != 0) {
      throw TableErrors.cannotWrite(table.location(), latest.version(), unknown);
    }
    StableRowIds.checkSupported(txn, latest, table.location());
    if (enableStableRowIds && !StableRowIds.enabled(latest)) {
      throw TableErrors.cannotEnableStableRowIds(table.location(), latest.version());
    }
  }

  // Builds version newVersion on latest and creates its manifest if absent.
  private Manifest create(Manifest latest, long newVersion, ManifestNaming naming) {
    Manifest next = ManifestBuilder.build(txn, latest, newVersion, newFormat, Instant.now(), table.location(),
        enableStableRowIds);
    String key = naming.key(newVersion);
    byte[] bytes = ManifestFiles.encode(next);
    try {
      table.store().putIfAbsent(key, bytes);
    } catch (ObjectExistsException e) {
      throw new ManifestTaken(e);
    } catch (IOException | RuntimeException e) {
      written.commit();
      throw TableErrors.stateUnknown(table.location(), key, e);
    }
    written.commit();
    table.remember(key, next, txn);
    writeHint(newVersion);
    return next;
  }

  private void writeTransaction() {
    String key = written.add(Table.TRANSACTIONS + txn.fileName());
    try {
      table.store().put(key, txn.proto().toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write transaction " + key + " of " + table.location(), e);
    }
  }

  // Checks every version committed after the last checked one, rebasing over those that need
  // it; returns the newest checked. {@code latest} is null when the newest version is unreadable
  // and this is a Restore, which wins over whatever that version did.
  private long checkConcurrent(NavigableMap<Long, String> versions, long checkedUpTo, long latestVersion,
      Manifest latest) {
    List<Transaction> toRebase = new ArrayList<>();
    for (Map.Entry<Long, String> e : versions.tailMap(checkedUpTo, false).entrySet()) {
      long v = e.getKey();
      if (v == latestVersion && latest == null) {
        continue;
      }
      Manifest m = v == latestVersion ? latest : table.read(e.getValue());
      Transaction theirs = table.transaction(m)
          .orElseThrow(() -> TableErrors.missingTransaction(table.location(), v));
      ConflictRules.Resolution r = ConflictRules.check(txn, theirs);
      if (r == ConflictRules.Resolution.CONFLICT || (r == ConflictRules.Resolution.REBASE && rebase == null)) {
        throw TableErrors.conflict(table.location(), txn, theirs, v);
      }
      if (r == ConflictRules.Resolution.REBASE) {
        toRebase.add(theirs);
      }
    }
    if (!toRebase.isEmpty()) {
      Rebased done = rebase.rebase(txn, toRebase, latest);
      written.addAll(done.written);
      String oldKey = Table.TRANSACTIONS + txn.fileName();
      txn = done.transaction;
      writeTransaction();
      if (!oldKey.equals(Table.TRANSACTIONS + txn.fileName())) {
        written.discard(oldKey);
      }
      // Files of the earlier attempt: no manifest references them.
      done.superseded.forEach(written::discard);
    }
    return latestVersion;
  }

  // The newest manifest. A Restore needs nothing of it but its number (taken from the listing),
  // so a Restore can replace a newest version whose manifest is unreadable: that is how a
  // dataset with a damaged newest manifest is recovered. Returns null in that case.
  private Manifest readNewest(String key) {
    Table.Known known = table.known();
    if (known != null && known.key().equals(key)) {
      return known.manifest();
    }
    try {
      return table.read(key);
    } catch (CorruptManifestException e) {
      if (txn.kind() != OperationKind.RESTORE) {
        throw e;
      }
      LOG.debug("Restoring over an unreadable newest version", e);
      return null;
    }
  }

  // A hint for other readers (Lance reads it as a starting point). Never needed for correctness.
  // Not written to a remote store, where it would cost every commit a round trip: lance-core
  // writes none there either, and every reader finds the newest version by listing.
  private void writeHint(long version) {
    if (table.store().remote()) {
      return;
    }
    try {
      table.store().put(Table.HINT, Json.write(Json.object().put("version", version)).getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      LOG.debug("Could not write the version hint of {}", table.location(), e);
    }
  }
}
