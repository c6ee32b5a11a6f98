package dev.javelin.core;

import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableException;
import dev.javelin.table.exceptions.UnsupportedFeatureException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One version of a dataset as {@link Dataset#versions()} lists it: its number, and what its
 * manifest says, or why that manifest could not be read.
 */
public final class VersionInfo {
  /** The {@link #operation()} of a version whose manifest cannot be read. */
  public static final String UNREADABLE = "unreadable";

  private final long version;
  private final Instant timestamp;
  private final String operation;
  private final long rowCount;
  private final String problem;

  VersionInfo(long version, Instant timestamp, String operation, long rowCount) {
    this(version, timestamp, operation, rowCount, null);
  }

  private VersionInfo(long version, Instant timestamp, String operation, long rowCount, String problem) {
    this.version = version;
    this.timestamp = timestamp;
    this.operation = operation;
    this.rowCount = rowCount;
    this.problem = problem;
  }

  // Every version in the listing, each from its own manifest: one that is damaged (or needs
  // features Javelin lacks) is listed as unreadable, and the others still are listed.
  static List<VersionInfo> list(Table table) {
    List<VersionInfo> out = new ArrayList<>();
    for (Map.Entry<Long, String> e : table.listVersions().entrySet()) {
      Manifest m;
      try {
        m = table.load(e.getKey());
      } catch (CorruptManifestException | UnsupportedFeatureException ex) {
        out.add(new VersionInfo(e.getKey(), null, UNREADABLE, 0, ex.getMessage()));
        continue;
      }
      String op;
      try {
        op = table.transaction(m).map(tx -> tx.kind() == OperationKind.UNKNOWN ? "unknown"
            : tx.kind().displayName()).orElse("unknown");
      } catch (TableException ex) {
        op = "unknown"; // a damaged transaction file says nothing about the version's data
      }
      out.add(new VersionInfo(m.version(), m.timestamp().orElse(null), op, m.countRows()));
    }
    return out;
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

  /** Live rows in this version (0 when it is unreadable). */
  public long rowCount() {
    return rowCount;
  }

  /** Whether the version's manifest could be read. */
  public boolean readable() {
    return problem == null;
  }

  /** Why the version's manifest cannot be read (the error's message), if it cannot. */
  public Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  @Override
  public String toString() {
    return problem != null ? "v" + version + " unreadable (" + problem + ")"
        : "v" + version + " " + operation + " (" + rowCount + " rows)";
  }
}
