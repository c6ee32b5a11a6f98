package dev.javelin.table;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The deleted rows of a fragment, stored in {@code _deletions/}. Immutable, over its protobuf.
 * (Reading and writing the file itself comes with deletes.)
 */
public final class DeletionFile {
  private final TableProtos.DeletionFile proto;
  // The manifest's base paths, when the file came from one (see #store).
  private final BasePaths bases;

  private DeletionFile(TableProtos.DeletionFile proto, BasePaths bases) {
    this.proto = proto;
    this.bases = bases;
  }

  public static DeletionFile fromProto(TableProtos.DeletionFile proto) {
    return new DeletionFile(Objects.requireNonNull(proto), null);
  }

  static DeletionFile fromProto(TableProtos.DeletionFile proto, BasePaths bases) {
    return new DeletionFile(Objects.requireNonNull(proto), bases);
  }

  /** Whether it is a roaring bitmap (.bin) rather than an Arrow file (.arrow). */
  public boolean isBitmap() {
    return proto.getFileType() == TableProtos.DeletionFile.DeletionFileType.BITMAP;
  }

  public long readVersion() {
    return proto.getReadVersion();
  }

  public long id() {
    return proto.getId();
  }

  public long numDeletedRows() {
    return proto.getNumDeletedRows();
  }

  /**
   * The file's key relative to the dataset root, {@code _deletions/{fragment}-{read version}-{id}.{arrow|bin}}
   * (where a file without a base id is; see {@link #key(ObjectStore, long)} for one that has one).
   */
  public String key(long fragmentId) {
    return "_deletions/" + name(fragmentId);
  }

  private String name(long fragmentId) {
    return fragmentId + "-" + readVersion() + "-" + Long.toUnsignedString(id()) + (isBitmap() ? ".bin" : ".arrow");
  }

  /** Whether the file lives under another base path (a shallow clone's or branch's source). */
  public boolean hasBaseId() {
    return proto.hasBaseId();
  }

  /**
   * The store the file is in: {@code own} (the dataset's) unless it lives under another base path.
   *
   * @throws IllegalStateException if it has a base id but was not read from a manifest
   * @throws CorruptManifestException if the manifest has no base path of its id
   */
  public ObjectStore store(ObjectStore own, long fragmentId) {
    return resolved(own, fragmentId).store(own, baseIdOrNull(), key(fragmentId));
  }

  /** The file's key in {@link #store}. */
  public String key(ObjectStore own, long fragmentId) {
    return resolved(own, fragmentId).key(own, baseIdOrNull(), "_deletions/", name(fragmentId));
  }

  /** The id of the base path the file lives under, if not the dataset's own root. */
  public OptionalInt baseId() {
    return proto.hasBaseId() ? OptionalInt.of(proto.getBaseId()) : OptionalInt.empty();
  }

  private Integer baseIdOrNull() {
    return proto.hasBaseId() ? proto.getBaseId() : null;
  }

  private BasePaths resolved(ObjectStore own, long fragmentId) {
    if (!proto.hasBaseId()) {
      return BasePaths.NONE;
    }
    if (bases == null) {
      throw new IllegalStateException("Deletion file " + key(fragmentId) + " names base path " + proto.getBaseId()
          + " but was not read from a manifest: " + own.location());
    }
    return bases;
  }

  public TableProtos.DeletionFile proto() {
    return proto;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletionFile && ((DeletionFile) o).proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }
}
