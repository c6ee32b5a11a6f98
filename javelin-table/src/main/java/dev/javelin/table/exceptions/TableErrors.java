package dev.javelin.table.exceptions;

import dev.javelin.io.UnsupportedStoreException;
import dev.javelin.table.Cleanup;
import dev.javelin.table.Commit;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Manifest;
import dev.javelin.table.ManifestValidator;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Transaction;
import java.util.Collection;
import java.util.Map;

/**
 * Every user-facing table error, built in one place so the wording stays consistent and
 * greppable. Messages say what failed and end with the dataset location (and version).
 */
public final class TableErrors {
  private TableErrors() {}

  public static UnsupportedFeatureException cannotRead(String location, long version, long flags) {
    return new UnsupportedFeatureException("Dataset version " + version + " needs reader features Javelin lacks ("
        + FeatureFlags.describe(flags) + "; flags " + flags + "): " + location, flags);
  }

  public static UnsupportedFeatureException cannotWrite(String location, long version, long flags) {
    return new UnsupportedFeatureException("Dataset version " + version + " needs writer features Javelin lacks ("
        + FeatureFlags.describe(flags) + "; flags " + flags + "): " + location, flags);
  }

  public static VersionNotFoundException noDataset(String location) {
    return new VersionNotFoundException("No dataset (no manifest in _versions/): " + location);
  }

  public static VersionNotFoundException noVersion(String location, long version) {
    return new VersionNotFoundException("Dataset has no version " + version + ": " + location);
  }

  public static DatasetExistsException exists(String location) {
    return new DatasetExistsException("A dataset already exists: " + location);
  }

  public static TagNotFoundException noTag(String location, String tag) {
    return new TagNotFoundException("Dataset has no tag '" + tag + "': " + location);
  }

  /**
   * A write that is safe only with a conditional put ({@code action}, e.g. "commit to"), refused on a
   * store that cannot do one; {@code what} is what concurrent writers would overwrite.
   */
  public static UnsupportedStoreException noConditionalPut(String action, String location, String what) {
    return new UnsupportedStoreException("Cannot " + action + " " + location + ": its store cannot create an "
        + "object only if it is absent, so concurrent writers could overwrite each other's " + what
        + "; Javelin does not write to such a store");
  }

  public static TagExistsException tagExists(String location, String tag, long version) {
    return new TagExistsException("Tag '" + tag + "' already exists (on version " + version + "): " + location);
  }

  public static InvalidTagNameException invalidTagName(String location, String tag, String why) {
    return new InvalidTagNameException("Invalid tag name '" + tag + "' (" + why + "): " + location);
  }

  public static BranchNotFoundException noBranch(String location, String branch) {
    return new BranchNotFoundException("Dataset has no branch '" + branch + "': " + location);
  }

  public static BranchExistsException branchExists(String location, String branch) {
    return new BranchExistsException("Branch '" + branch + "' already exists: " + location);
  }

  public static BranchInUseException branchInUse(String location, String branch, Collection<String> children) {
    return new BranchInUseException("Branch '" + branch + "' cannot be deleted: branches " + children
        + " were created from it and refer to its files; delete them first: " + location);
  }

  public static InvalidBranchNameException invalidBranchName(String location, String branch, String why) {
    return new InvalidBranchNameException("Invalid branch name '" + branch + "' (" + why + "): " + location);
  }

  public static CleanupRefusedException taggedOldVersions(String location, Map<String, Long> tags) {
    return new CleanupRefusedException("Cleanup would remove tagged versions (" + tags
        + "); delete those tags or let the cleanup keep them: " + location);
  }

  public static CorruptManifestException cleanupUnreadable(String location, long version, Long older) {
    return new CorruptManifestException("Cleanup would keep version " + version + " but its manifest cannot be read, "
        + "so the files it uses cannot be told apart from garbage" + (older == null ? ""
            : "; restore an intact version first (e.g. version " + older + ") and the cleanup can remove it")
        + ": " + location, null);
  }

  public static CorruptManifestException corrupt(String file, String what) {
    return new CorruptManifestException(what + ": " + file, null);
  }

  public static CorruptManifestException corrupt(String file, String what, Throwable cause) {
    return new CorruptManifestException(what + ": " + file, cause);
  }

  /** A manifest that parses but contradicts itself (see {@link ManifestValidator}). */
  public static CorruptManifestException invalidManifest(String file, long version, String what, Throwable cause) {
    return new CorruptManifestException("Manifest of version " + Long.toUnsignedString(version) + " is inconsistent: "
        + what + ": " + file, cause);
  }

  public static CommitConflictException conflict(
      String location, Transaction mine, Transaction theirs, long theirVersion) {
    return new CommitConflictException("This " + mine.kind().displayName() + " (read version " + mine.readVersion()
        + ") conflicts with the " + theirs.kind().displayName() + " committed as version " + theirVersion + ": "
        + location, theirVersion);
  }

  public static CommitConflictException missingTransaction(String location, long version) {
    return new CommitConflictException("Version " + version
        + " has no transaction to check this commit against: " + location, version);
  }

  public static CommitFailedException retriesExhausted(String location, int attempts, Throwable last) {
    return new CommitFailedException("Commit did not land after " + attempts
        + " attempts (other writers kept committing first): " + location, last);
  }

  public static CommitStateUnknownException stateUnknown(String location, String manifest, Throwable cause) {
    return new CommitStateUnknownException("Store failed while creating manifest " + manifest
        + "; the commit may or may not have landed: " + location, cause);
  }

  public static SchemaMismatchException schemaMismatch(String location, String field, String detail) {
    return new SchemaMismatchException("Field '" + field + "' does not match the dataset's schema (" + detail
        + "): " + location, field);
  }

  /**
   * Nulls bound for a non-nullable field. The message gives no count: a write stops at the first
   * batch holding any, so the total is not known.
   *
   * @param field the field's path, struct children and list items joined by dots ({@code address.city})
   * @param operation what writes them, as a noun ("update", "append")
   */
  public static NullValueException nullsInNonNullable(String location, String field, String operation) {
    return new NullValueException("Column '" + field + "' is not nullable but the " + operation
        + " writes nulls into it: " + location, field);
  }

  /** Formats a row address as Lance shows it in messages: {@code fragment:offset}. */
  private static String address(long rowAddress) {
    return rowAddress + " (fragment " + (rowAddress >>> 32) + ", offset " + (rowAddress & 0xFFFFFFFFL) + ")";
  }

  public static RowNotFoundException rowNotFound(String location, long version, long rowAddress, String why) {
    return new RowNotFoundException("Row address " + address(rowAddress) + " " + why + " in version " + version
        + ": " + location, rowAddress);
  }

  /** A stable row id that is unknown to the version, or whose row is deleted. */
  public static RowIdNotFoundException rowIdNotFound(String location, long version, long rowId, boolean deleted) {
    return new RowIdNotFoundException("Row id " + Long.toUnsignedString(rowId) + (deleted ? " is deleted" : " is unknown")
        + " in version " + version + ": " + location, rowId, deleted);
  }

  public static CommitConflictException rowsConflict(String location, Transaction mine, long latestVersion,
      long rowAddress) {
    return new CommitConflictException("This " + mine.kind().displayName() + " (read version " + mine.readVersion()
        + ") deletes row " + address(rowAddress) + " that a concurrent Update rewrote (by version " + latestVersion
        + "): " + location, latestVersion);
  }

  public static CommitConflictException rowsUpdatedConcurrently(String location, Transaction mine,
      long latestVersion, long rowAddress) {
    return new CommitConflictException("This " + mine.kind().displayName() + " (read version " + mine.readVersion()
        + ") rewrites row " + address(rowAddress) + " that a concurrent commit deleted or rewrote (by version "
        + latestVersion + "): " + location, latestVersion);
  }

  public static StableRowIdsUnsupportedException stableRowIdsUnsupported(String location, long version,
      OperationKind operation) {
    return new StableRowIdsUnsupportedException("Javelin cannot commit a " + operation.displayName()
        + " on a dataset with stable row ids yet (version " + version + "): " + location, operation);
  }

  public static UnsupportedFeatureException cannotEnableStableRowIds(String location, long version) {
    return new UnsupportedFeatureException("Cannot enable stable row ids on an existing dataset (version " + version
        + " has none): " + location, FeatureFlags.STABLE_ROW_IDS);
  }

  public static CloneRefusedException cloneRefused(String location, long version, String what, String first) {
    return new CloneRefusedException("Cannot shallow-clone version " + version + ": it has " + what
        + ", which a shallow clone cannot refer to yet; " + first + " first: " + location);
  }
}
