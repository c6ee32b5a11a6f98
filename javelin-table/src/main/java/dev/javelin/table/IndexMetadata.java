package dev.javelin.table;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.roaringbitmap.RoaringBitmap;

/**
 * One index entry of a manifest (or one delta of an index): its uuid, name, the field ids it is
 * built on, the dataset version it was built from, the fragments it covers, the kind-specific
 * details, and the files it wrote. Immutable, over its protobuf, so whatever a newer writer put in
 * an entry and Javelin does not interpret survives when Javelin builds the next version from it.
 * Build one with {@link #builder}; derive one from another with {@link #toBuilder} or
 * {@link #renewed}.
 */
public final class IndexMetadata {
  /**
   * The {@code index_details} of an entry: the type URL of a protobuf message naming the index
   * kind, and that message serialized.
   */
  public record Details(String typeUrl, ByteString value) {
    public Details {
      Objects.requireNonNull(typeUrl, "typeUrl");
      Objects.requireNonNull(value, "value");
    }
  }

  /** One file of an index, relative to its {@code _indices/<uuid>/} directory, and its size in bytes. */
  public record IndexFile(String path, long sizeBytes) {
    public IndexFile {
      Objects.requireNonNull(path, "path");
    }
  }

  private final TableProtos.IndexMetadata proto;

  private IndexMetadata(TableProtos.IndexMetadata proto) {
    this.proto = Objects.requireNonNull(proto);
  }

  /** The entry a parsed protobuf describes, unchanged (the manifest validator checks it). */
  static IndexMetadata fromProto(TableProtos.IndexMetadata proto) {
    return new IndexMetadata(proto);
  }

  static List<IndexMetadata> fromProtos(List<TableProtos.IndexMetadata> protos) {
    List<IndexMetadata> out = new ArrayList<>(protos.size());
    protos.forEach(p -> out.add(new IndexMetadata(p)));
    return out;
  }

  static List<TableProtos.IndexMetadata> toProtos(List<IndexMetadata> indices) {
    List<TableProtos.IndexMetadata> out = new ArrayList<>(indices.size());
    indices.forEach(i -> out.add(i.proto));
    return out;
  }

  /** The protobuf as it is written to the manifest's index section. */
  TableProtos.IndexMetadata proto() {
    return proto;
  }

  /** A builder for a new entry. */
  public static Builder builder() {
    return new Builder(TableProtos.IndexMetadata.newBuilder());
  }

  /** A builder starting from this entry, everything kept (fields Javelin does not know included). */
  public Builder toBuilder() {
    return new Builder(proto.toBuilder());
  }

  /**
   * A builder for a new index made from this one (remapped, merged with new rows) under
   * {@code newUuid}, to be completed by the caller. Its files are this dataset's own, so the base
   * id (a shallow clone's source) goes; so do its list of files, which described the old index's
   * files, and the fields Javelin does not know, which may describe them too.
   */
  public Builder renewed(String newUuid) {
    return renewed(uuidProto(newUuid));
  }

  /** {@link #renewed(String)} with the uuid as a Rewrite's {@code RewrittenIndex.new_id} holds it. */
  Builder renewed(TableProtos.UUID newUuid) {
    return new Builder(proto.toBuilder()
        .setUnknownFields(UnknownFieldSet.getDefaultInstance())
        .clearFiles()
        .clearBaseId()
        .setUuid(newUuid));
  }

  /** The uuid, in its text form (the index's directory is {@code _indices/<uuid>/}). */
  public String uuid() {
    return IndexUuids.toText(proto.getUuid().getUuid());
  }

  /** The 16 stored bytes of the uuid (as the manifest validator checks them). */
  ByteString uuidBytes() {
    return proto.getUuid().getUuid();
  }

  /** Whether {@code other} has the same uuid. */
  public boolean sameUuid(IndexMetadata other) {
    return proto.getUuid().equals(other.proto.getUuid());
  }

  /** The ids of the fields the index is built on; empty for most system indices. */
  public List<Integer> fields() {
    return proto.getFieldsList();
  }

  public String name() {
    return proto.getName();
  }

  /** Whether this is a system index ({@code __lance_*}), whose bitmap does not mean coverage. */
  public boolean isSystem() {
    return proto.getName().startsWith("__lance_");
  }

  /** The dataset version the index was built from. */
  public long datasetVersion() {
    return proto.getDatasetVersion();
  }

  /**
   * The ids of the fragments the index covers (empty when it records none): a new bitmap, the
   * caller's to change.
   *
   * @throws CorruptManifestException if the stored bitmap does not parse
   */
  public RoaringBitmap fragmentBitmap() {
    return IndexBitmaps.parse(proto.getFragmentBitmap(), proto.getName());
  }

  /** Whether the entry records no fragment bitmap at all (not even an empty one). */
  boolean lacksFragmentBitmap() {
    return proto.getFragmentBitmap().isEmpty();
  }

  /** Whether the entry has {@code index_details}. */
  public boolean hasDetails() {
    return proto.hasIndexDetails();
  }

  /** The {@code index_details}; an empty type URL and value when the entry has none. */
  public Details details() {
    return new Details(proto.getIndexDetails().getTypeUrl(), proto.getIndexDetails().getValue());
  }

  /** The index format version, if recorded. */
  public OptionalInt indexVersion() {
    return proto.hasIndexVersion() ? OptionalInt.of(proto.getIndexVersion()) : OptionalInt.empty();
  }

  /** When the index was created, in milliseconds since the epoch, if recorded. */
  public OptionalLong createdAt() {
    return proto.hasCreatedAt() ? OptionalLong.of(proto.getCreatedAt()) : OptionalLong.empty();
  }

  /** The base path the index's files live under (a shallow clone's source), if not the dataset's own. */
  public OptionalInt baseId() {
    return proto.hasBaseId() ? OptionalInt.of(proto.getBaseId()) : OptionalInt.empty();
  }

  /** The index's files and their sizes; empty when the writer did not record them. */
  public List<IndexFile> files() {
    List<IndexFile> out = new ArrayList<>(proto.getFilesCount());
    for (TableProtos.IndexFile f : proto.getFilesList()) {
      out.add(new IndexFile(f.getPath(), f.getSizeBytes()));
    }
    return List.copyOf(out);
  }

  private static TableProtos.UUID uuidProto(String uuid) {
    return TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(uuid)).build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndexMetadata other && other.proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return "IndexMetadata{name=" + name() + ", uuid=" + (uuidBytes().size() == 16 ? uuid() : "?")
        + ", fields=" + fields() + ", datasetVersion=" + datasetVersion() + "}";
  }

  /** Builds an {@link IndexMetadata}; each setter replaces what was there. */
  public static final class Builder {
    private final TableProtos.IndexMetadata.Builder b;

    private Builder(TableProtos.IndexMetadata.Builder b) {
      this.b = b;
    }

    /** The uuid, in text form. */
    public Builder uuid(String uuid) {
      b.setUuid(uuidProto(uuid));
      return this;
    }

    public Builder name(String name) {
      b.setName(name);
      return this;
    }

    /** The ids of the fields the index is built on. */
    public Builder fields(List<Integer> fieldIds) {
      b.clearFields().addAllFields(fieldIds);
      return this;
    }

    public Builder datasetVersion(long version) {
      b.setDatasetVersion(version);
      return this;
    }

    /** The covered fragment ids, stored as Lance stores them (a run-optimized portable roaring bitmap). */
    public Builder fragmentBitmap(RoaringBitmap fragmentIds) {
      b.setFragmentBitmap(IndexBitmaps.write(fragmentIds.clone()));
      return this;
    }

    public Builder details(Details details) {
      b.setIndexDetails(Any.newBuilder().setTypeUrl(details.typeUrl()).setValue(details.value()));
      return this;
    }

    /** The details as a Rewrite's {@code RewrittenIndex.new_index_details} holds them. */
    Builder details(Any details) {
      b.setIndexDetails(details);
      return this;
    }

    /** Details of a kind whose message is empty: the type URL only. */
    public Builder details(String typeUrl) {
      b.setIndexDetails(Any.newBuilder().setTypeUrl(typeUrl));
      return this;
    }

    public Builder indexVersion(int version) {
      b.setIndexVersion(version);
      return this;
    }

    /** When the index was created, in milliseconds since the epoch. */
    public Builder createdAt(long epochMillis) {
      b.setCreatedAt(epochMillis);
      return this;
    }

    public Builder baseId(int id) {
      b.setBaseId(id);
      return this;
    }

    /** The index's files and their sizes. */
    public Builder files(List<IndexFile> files) {
      b.clearFiles();
      for (IndexFile f : files) {
        b.addFiles(TableProtos.IndexFile.newBuilder().setPath(f.path()).setSizeBytes(f.sizeBytes()));
      }
      return this;
    }

    public IndexMetadata build() {
      return new IndexMetadata(b.build());
    }
  }
}
