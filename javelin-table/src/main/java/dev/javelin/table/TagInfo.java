package dev.javelin.table;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** One tag: a name for a version, as stored in {@code _refs/tags/{name}.json}. Immutable. */
public final class TagInfo {
  private final String name;
  private final long version;
  private final long manifestSize;
  private final String branch;
  private final Instant createdAt;
  private final Instant updatedAt;
  private final Map<String, String> metadata;

  TagInfo(String name, long version, long manifestSize, String branch, Instant createdAt, Instant updatedAt,
      Map<String, String> metadata) {
    this.name = name;
    this.version = version;
    this.manifestSize = manifestSize;
    this.branch = branch;
    this.createdAt = createdAt;
    this.updatedAt = updatedAt;
    this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  public String name() {
    return name;
  }

  /** The version the tag names. */
  public long version() {
    return version;
  }

  /** The size in bytes of that version's manifest file when the tag was set. */
  public long manifestSize() {
    return manifestSize;
  }

  /** The branch of the version; empty for the main branch . */
  public Optional<String> branch() {
    return Optional.ofNullable(branch);
  }

  public Optional<Instant> createdAt() {
    return Optional.ofNullable(createdAt);
  }

  public Optional<Instant> updatedAt() {
    return Optional.ofNullable(updatedAt);
  }

  /** Free-form metadata Lance lets users attach; carried through updates. */
  public Map<String, String> metadata() {
    return metadata;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TagInfo)) {
      return false;
    }
    TagInfo t = (TagInfo) o;
    return name.equals(t.name) && version == t.version && manifestSize == t.manifestSize
        && Objects.equals(branch, t.branch) && Objects.equals(createdAt, t.createdAt)
        && Objects.equals(updatedAt, t.updatedAt) && metadata.equals(t.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, version, manifestSize, branch, createdAt, updatedAt, metadata);
  }

  @Override
  public String toString() {
    return "Tag{" + name + " -> v" + version + "}";
  }
}
