package dev.javelin.core;

import java.time.Instant;
import java.util.Optional;

/** One version of a dataset as {@link Dataset#versions()} lists it. */
public final class VersionInfo {
  private final long version;
  private final Instant timestamp;
  private final String operation;
  private final long rowCount;

  VersionInfo(long version, Instant timestamp, String operation, long rowCount) {
    this.version = version;
    this.timestamp = timestamp;
    this.operation = operation;
    this.rowCount = rowCount;
  }

  public long version() {
    return version;
  }

  /** When it was committed, if the writer recorded it. */
  public Optional<Instant> timestamp() {
    return Optional.ofNullable(timestamp);
  }

  /** Lance's name of the operation that made it ("Append", "Overwrite", ...), or "unknown". */
  public String operation() {
    return operation;
  }

  /** Live rows in this version. */
  public long rowCount() {
    return rowCount;
  }

  @Override
  public String toString() {
    return "v" + version + " " + operation + " (" + rowCount + " rows)";
  }
}
