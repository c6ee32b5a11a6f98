package dev.javelin.table;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A branch's record, {@code _refs/branches/<name>.json} (a '/' in the name written as
 * {@code %2F}), as Lance 7 writes it: where the branch came from and when.
 */
public final class BranchInfo {
  private final String name;
  private final String parentBranch;
  private final long parentVersion;
  private final Instant createdAt;
  private final long manifestSize;
  private final List<Lineage> lineage;
  private final Map<String, String> metadata;

  BranchInfo(String name, String parentBranch, long parentVersion, Instant createdAt, long manifestSize,
      List<Lineage> lineage, Map<String, String> metadata) {
    this.name = name;
    this.parentBranch = parentBranch;
    this.parentVersion = parentVersion;
    this.createdAt = createdAt;
    this.manifestSize = manifestSize;
    this.lineage = List.copyOf(lineage);
    this.metadata = Map.copyOf(metadata);
  }

  public String name() {
    return name;
  }

  /** The branch it was created from; empty for the main branch. */
  public Optional<String> parentBranch() {
    return Optional.ofNullable(parentBranch);
  }

  /** The version of the parent branch it was created from (its first version has this number). */
  public long parentVersion() {
    return parentVersion;
  }

  /** When it was created (whole seconds, as Lance records it). */
  public Instant createdAt() {
    return createdAt;
  }

  /** The size of the parent's manifest it was created from. */
  public long manifestSize() {
    return manifestSize;
  }

  /**
   * Lance's branch identifier: for each branching on the way from the main branch to this one,
   * the parent version branched from and a random id of that branching (oldest first).
   */
  public List<Lineage> lineage() {
    return lineage;
  }

  public Map<String, String> metadata() {
    return metadata;
  }

  /** One branching: the version branched from and the branching's id (32 hex digits). */
  public static final class Lineage {
    private final long version;
    private final String id;

    Lineage(long version, String id) {
      this.version = version;
      this.id = Objects.requireNonNull(id);
    }

    public long version() {
      return version;
    }

    public String id() {
      return id;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Lineage && ((Lineage) o).version == version && ((Lineage) o).id.equals(id);
    }

    @Override
    public int hashCode() {
      return Objects.hash(version, id);
    }

    @Override
    public String toString() {
      return version + ":" + id;
    }
  }

  @Override
  public String toString() {
    return "Branch{" + name + ", from " + (parentBranch == null ? "main" : parentBranch) + ":" + parentVersion + "}";
  }
}
