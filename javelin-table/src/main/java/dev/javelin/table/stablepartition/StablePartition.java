package dev.javelin.table.stablepartition;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.exceptions.ConcurrentRewriteException;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What a reordered Rewrite carries in memory only (never serialized): the new
 * {@code __lance_stable_partition} entry it installs, the transition it adds, and the uuid of the
 * entry it was appended onto ({@code baseEntryVersion}; null when there was none). The commit
 * rejects it with {@link ConcurrentRewriteException} when the newest manifest's entry is another
 * one: the caller builds a new StablePartition on the newest version and retries.
 */
public final class StablePartition {
  private final IndexMetadata entry;
  private final StablePartitionTransition transition;
  // The base entry's identity: its uuid (stable for the entry's life) and the version it was
  // last installed at (each commit of a reordered rewrite stamps its own version there).
  private final String baseEntryUuid;
  // Sources a concurrent commit removed whole, folded into the destinations (StablePartitionFold):
  // the rewrite no longer replaces them, the transition still names them.
  private final Set<Long> goneSources;

  private StablePartition(IndexMetadata entry, StablePartitionTransition transition,
      String baseEntryUuid) {
    this(entry, transition, baseEntryUuid, Set.of());
  }

  private StablePartition(IndexMetadata entry, StablePartitionTransition transition,
      String baseEntryUuid, Set<Long> goneSources) {
    this.entry = entry;
    this.transition = transition;
    this.baseEntryUuid = baseEntryUuid;
    this.goneSources = Set.copyOf(goneSources);
  }

  private static String identity(IndexMetadata e) {
    return e == null ? null : StablePartitionEntry.uuid(e) + "@" + e.datasetVersion();
  }

  /**
   * Appends {@code transition} to the entry of {@code read} (the version the rewrite read), writing
   * spilled details if they are large ({@link #writtenFiles()}: delete them if the commit fails).
   * Check conservation first ({@link StablePartitionValidator#validate}).
   */
  public static StablePartition appendTo(Manifest read, StablePartitionTransition transition, ObjectStore store)
      throws IOException {
    return appendTo(read, transition, store, UUID.randomUUID().toString());
  }

  /**
   * As {@link #appendTo(Manifest, StablePartitionTransition, ObjectStore)}, naming the uuid the
   * entry takes when {@code read} has none (the directory the caller wrote the row map into: see
   * {@link #entryUuidFor}).
   */
  public static StablePartition appendTo(Manifest read, StablePartitionTransition transition, ObjectStore store,
      String uuidIfNew) throws IOException {
    IndexMetadata base = StablePartitionEntry.find(read).orElse(null);
    int field = StablePartitionEntry.anchorField(read.proto().getFieldsList()).orElseThrow(() ->
        new IllegalArgumentException("A reordered rewrite needs a dataset with at least one column: "
            + store.location()));
    IndexMetadata entry = StablePartitionEntry.append(base, transition, read.version(), store, uuidIfNew,
        field);
    return new StablePartition(entry, transition, identity(base));
  }

  /**
   * The uuid of {@code m}'s entry, or a new one: row maps go in {@code _indices/<that uuid>/},
   * which lives as long as the entry does.
   */
  public static String entryUuidFor(Manifest m) {
    return StablePartitionEntry.find(m).map(StablePartitionEntry::uuid)
        .orElseGet(() -> UUID.randomUUID().toString());
  }

  /** The entry as the commit installs it in version {@code version}. */
  public IndexMetadata entryAt(long version) {
    return entry.toBuilder().datasetVersion(version).build();
  }

  /** The entry the commit installs (replacing any other {@code __lance_stable_partition}). */
  public IndexMetadata entry() {
    return entry;
  }

  /** The transition this rewrite adds. */
  public StablePartitionTransition transition() {
    return transition;
  }

  /** The identity (uuid@version) of the entry this one was appended onto, or empty when there was none. */
  public Optional<String> baseEntryVersion() {
    return Optional.ofNullable(baseEntryUuid);
  }

  /** Files written for the new entry (its spilled details), to delete if the commit fails. */
  public List<String> writtenFiles() {
    return StablePartitionEntry.writtenFile(entry).map(List::of).orElse(List.of());
  }

  /** This stable partition with {@code gone} the sources no longer in the manifest (every row deleted). */
  StablePartition withGoneSources(Set<Long> gone) {
    return new StablePartition(entry, transition, baseEntryUuid, gone);
  }

  // Sources a concurrent commit removed, which the reordered groups no longer list.
  public Set<Long> goneSources() {
    return goneSources;
  }

  // The source fragment ids: the transition's sources (the reordered groups' old fragments, and
  // any gone ones).
  public Set<Long> sourceIds() {
    Set<Long> out = new HashSet<>();
    transition.sources().forEach(s -> out.add(s.id()));
    return out;
  }

  @Override
  public String toString() {
    return "StablePartition{base=" + baseEntryUuid + ", " + transition + "}";
  }

  // Not compared with equals: like the fragment reuse index, it is not part of the transaction's identity.
  public static boolean sameBase(StablePartition sp, IndexMetadata current) {
    return Objects.equals(identity(current), sp.baseEntryUuid);
  }
}
