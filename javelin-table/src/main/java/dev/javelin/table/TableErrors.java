package dev.javelin.table;

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

  public static CorruptManifestException corrupt(String file, String what) {
    return new CorruptManifestException(what + ": " + file, null);
  }

  public static CorruptManifestException corrupt(String file, String what, Throwable cause) {
    return new CorruptManifestException(what + ": " + file, cause);
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

  public static StableRowIdsUnsupportedException stableRowIdsUnsupported(String location, long version,
      OperationKind operation) {
    return new StableRowIdsUnsupportedException("Javelin cannot commit a " + operation.displayName()
        + " on a dataset with stable row ids yet (version " + version + "): " + location, operation);
  }

  public static UnsupportedFeatureException cannotEnableStableRowIds(String location, long version) {
    return new UnsupportedFeatureException("Cannot enable stable row ids on an existing dataset (version " + version
        + " has none): " + location, FeatureFlags.STABLE_ROW_IDS);
  }
}
