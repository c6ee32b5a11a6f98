package dev.javelin.table.stablepartition;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;

/**
 * The {@code __lance_stable_partition} system index entry: every reordered rewrite's
 * {@link StablePartitionTransition}, oldest first. Its fragment bitmap is the union of all
 * transitions' source ids (retired fragments: provenance, not coverage). The details are inline
 * while they serialize below {@value #SPILL_BYTES} bytes, else in
 * {@code _indices/<entry uuid>/details.binpb}, referenced from the inline details.
 */
public final class StablePartitionEntry {
  /** The entry's index name. */
  public static final String NAME = "__lance_stable_partition";
  /** The type URL of its details ({@code lance.table.StablePartitionDetails}). */
  public static final String TYPE_URL = "/lance.table.StablePartitionDetails";
  /** Details of this many serialized bytes or more are spilled to a file. */
  public static final int SPILL_BYTES = 200 * 1024;

  private StablePartitionEntry() {}

  /** The manifest's entry, if it has one. */
  public static Optional<IndexMetadata> find(Manifest m) {
    return m.indices().stream().filter(i -> i.name().equals(NAME)).findFirst();
  }

  /** The transitions recorded in {@code m}, oldest first (empty without an entry). */
  public static List<StablePartitionTransition> transitions(Manifest m, ObjectStore store) throws IOException {
    Optional<IndexMetadata> e = find(m);
    return e.isPresent() ? transitions(e.get(), store) : List.of();
  }

  /**
   * The transitions of an entry, reading spilled details when they are not inline.
   *
   * @throws CorruptManifestException if the details (or their file) do not parse
   */
  public static List<StablePartitionTransition> transitions(IndexMetadata entry, ObjectStore store)
      throws IOException {
    TableProtos.StablePartitionDetails d = parse(entry.details(), "index " + NAME);
    String where = "index " + NAME;
    if (d.getContentCase() == TableProtos.StablePartitionDetails.ContentCase.EXTERNAL) {
      TableProtos.ExternalFile f = d.getExternal();
      where = f.getPath();
      byte[] all = store.read(f.getPath());
      if (f.getOffset() + f.getSize() > all.length) {
        throw TableErrors.corrupt(where, "Stable partition details extend past the file's " + all.length + " bytes");
      }
      try {
        d = TableProtos.StablePartitionDetails.parseFrom(
            ByteBuffer.wrap(all, (int) f.getOffset(), (int) f.getSize()));
      } catch (InvalidProtocolBufferException e) {
        throw TableErrors.corrupt(where, "Stable partition details do not parse", e);
      }
      if (d.getContentCase() != TableProtos.StablePartitionDetails.ContentCase.INLINE) {
        throw TableErrors.corrupt(where, "Spilled stable partition details are not inline");
      }
    }
    List<StablePartitionTransition> out = new ArrayList<>();
    for (var t : d.getInline().getTransitionsList()) {
      try {
        out.add(StablePartitionTransition.fromProto(t));
      } catch (IllegalArgumentException e) {
        throw TableErrors.corrupt(where, "A stable partition transition is invalid (" + e.getMessage() + ")", e);
      }
    }
    return out;
  }

  /**
   * The entry holding {@code existing}'s transitions and then {@code transition}, under
   * {@code existing}'s uuid (or {@code newUuid} when there is none): the uuid stays for the
   * entry's life because lance-core's cleanup keeps {@code _indices/<uuid>/} only while a kept
   * version names that uuid, and the row maps live there. Spills the details to
   * {@code _indices/<uuid>/details-<random>.binpb} when they are large (the caller deletes
   * {@link #writtenFile} of the result if its commit fails).
   *
   * <p>The entry names one field ({@code fieldId}, a live top-level field): lance-core 7.0.0's
   * index optimizer aborts on an index without fields, and an entry naming a field that exists is
   * carried by every lance-core operation (see docs/stable-partition-lance-compat.md).
   *
   * @param existing the manifest's current entry, or null
   * @param version the dataset version the rewrite read (the commit stamps the version it lands in)
   */
  public static IndexMetadata append(IndexMetadata existing,
      StablePartitionTransition transition, long version, ObjectStore store, String newUuid, int fieldId)
      throws IOException {
    List<StablePartitionTransition> all = new ArrayList<>();
    if (existing != null) {
      all.addAll(transitions(existing, store));
    }
    all.add(transition);
    String uuid = existing != null ? existing.uuid() : newUuid;
    return build(all, uuid, version, store, fieldId);
  }

  /**
   * {@code existing} holding only {@code keep} (a sublist of its transitions, in order), under the
   * same uuid and field: what is left when indices no longer need the other transitions
   * ({@code Dataset.settleIndices()}). Spills large details as {@link #append} does.
   *
   * @param version the version to stamp (the one the commit expects to make): a new stamp gives the
   *     entry a new identity, so a reordered rewrite that read the old entry is rejected as stale
   *     rather than splicing the dropped transitions back
   * @throws IllegalArgumentException if {@code keep} is empty (drop the entry instead)
   */
  public static IndexMetadata retain(IndexMetadata existing,
      List<StablePartitionTransition> keep, long version, ObjectStore store) throws IOException {
    if (keep.isEmpty()) {
      throw new IllegalArgumentException("An entry keeping no transition is dropped, not rewritten: "
          + store.location());
    }
    return build(keep, uuid(existing), version, store, existing.fields().get(0));
  }

  private static IndexMetadata build(List<StablePartitionTransition> all, String uuid, long version,
      ObjectStore store, int fieldId) throws IOException {
    TableProtos.StablePartitionDetails.InlineContent.Builder inline =
        TableProtos.StablePartitionDetails.InlineContent.newBuilder();
    RoaringBitmap sources = new RoaringBitmap();
    for (StablePartitionTransition t : all) {
      inline.addTransitions(t.toProto());
      t.sources().forEach(s -> sources.add((int) s.id()));
    }
    TableProtos.StablePartitionDetails details =
        TableProtos.StablePartitionDetails.newBuilder().setInline(inline).build();
    byte[] bytes = details.toByteArray();
    if (bytes.length >= SPILL_BYTES) {
      String path = directory(uuid) + "/details-" + UUID.randomUUID() + ".binpb";
      store.put(path, bytes);
      details = TableProtos.StablePartitionDetails.newBuilder().setExternal(TableProtos.ExternalFile.newBuilder()
          .setPath(path).setOffset(0).setSize(bytes.length)).build();
    }
    return IndexMetadata.builder()
        .uuid(uuid)
        .name(NAME)
        .fields(List.of(fieldId))
        .indexVersion(0)
        .datasetVersion(version)
        .fragmentBitmap(sources)
        .details(new IndexMetadata.Details(TYPE_URL, details.toByteString()))
        .createdAt(Instant.now().toEpochMilli())
        .build();
  }

  /** The directory of an entry's files (row maps, spilled details): {@code _indices/<uuid>}. */
  public static String directory(String entryUuid) {
    return "_indices/" + entryUuid;
  }

  /** The entry's uuid, as text. */
  public static String uuid(IndexMetadata entry) {
    return entry.uuid();
  }

  /**
   * The field an entry should name in a schema: the first top-level field, or empty when
   * there is none. Any live field will do; lance-core drops the entry with that column.
   */
  public static OptionalInt anchorField(List<FileProtos.Field> schema) {
    return schema.stream().filter(f -> f.getParentId() == -1).mapToInt(FileProtos.Field::getId)
        .findFirst();
  }

  /** The file an entry's details were spilled to, or empty when they are inline. */
  public static Optional<String> writtenFile(IndexMetadata entry) {
    TableProtos.StablePartitionDetails d = parse(entry.details(), "index " + NAME);
    return d.getContentCase() == TableProtos.StablePartitionDetails.ContentCase.EXTERNAL
        ? Optional.of(d.getExternal().getPath()) : Optional.empty();
  }

  private static TableProtos.StablePartitionDetails parse(IndexMetadata.Details details, String where) {
    // Any type URL prefix ("type.googleapis.com/" or none) names the same message.
    if (!details.typeUrl().endsWith(TYPE_URL)) {
      throw TableErrors.corrupt(where, "Details type is '" + details.typeUrl() + "', not '" + TYPE_URL + "'");
    }
    try {
      return TableProtos.StablePartitionDetails.parseFrom(details.value());
    } catch (InvalidProtocolBufferException e) {
      throw TableErrors.corrupt(where, "Stable partition details do not parse", e);
    }
  }
}
