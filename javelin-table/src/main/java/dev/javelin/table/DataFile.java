package dev.javelin.table;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One Lance file of a fragment: which fields it holds ({@code fields[i]} is a field id, −2 for a
 * tombstoned one) and each field's column in the file ({@code columnIndices[i]}, −1 for none).
 * Immutable; backed by its protobuf, so fields Javelin does not know are kept.
 */
public final class DataFile {
  /** A field id slot that no longer holds a field. */
  public static final int TOMBSTONE = -2;

  private final TableProtos.DataFile proto;
  // The manifest's base paths, when the file came from one (see #store).
  private final BasePaths bases;

  private DataFile(TableProtos.DataFile proto, BasePaths bases) {
    this.proto = proto;
    this.bases = bases;
  }

  public static DataFile fromProto(TableProtos.DataFile proto) {
    return new DataFile(Objects.requireNonNull(proto), null);
  }

  static DataFile fromProto(TableProtos.DataFile proto, BasePaths bases) {
    return new DataFile(Objects.requireNonNull(proto), bases);
  }

  /**
   * A data file written by Javelin.
   *
   * @param path relative to the dataset's {@code data/} directory
   * @param fieldColumns (field id, column index) pairs, as {@code LanceFileWriter.fieldColumnIndices()} gives
   */
  public static DataFile of(String path, List<int[]> fieldColumns, LanceFileVersion version, long sizeBytes) {
    TableProtos.DataFile.Builder b = TableProtos.DataFile.newBuilder()
        .setPath(path)
        .setFileMajorVersion(version.major())
        .setFileMinorVersion(version.minor())
        .setFileSizeBytes(sizeBytes);
    for (int[] fc : fieldColumns) {
      b.addFields(fc[0]);
      b.addColumnIndices(fc[1]);
    }
    return new DataFile(b.build(), null);
  }

  public String path() {
    return proto.getPath();
  }

  public List<Integer> fields() {
    return proto.getFieldsList();
  }

  public List<Integer> columnIndices() {
    return proto.getColumnIndicesList();
  }

  public int fileMajorVersion() {
    return proto.getFileMajorVersion();
  }

  public int fileMinorVersion() {
    return proto.getFileMinorVersion();
  }

  /** 0 when the writer did not record it. */
  public long fileSizeBytes() {
    return proto.getFileSizeBytes();
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
  public ObjectStore store(ObjectStore own) {
    return resolved(own).store(own, baseIdOrNull(), path());
  }

  /** The file's key in {@link #store}: {@code data/<path>}, or just the path under a file directory base. */
  public String key(ObjectStore own) {
    return resolved(own).key(own, baseIdOrNull(), "data/", path());
  }

  /** The id of the base path the file lives under, if not the dataset's own root. */
  public OptionalInt baseId() {
    return proto.hasBaseId() ? OptionalInt.of(proto.getBaseId()) : OptionalInt.empty();
  }

  private Integer baseIdOrNull() {
    return proto.hasBaseId() ? proto.getBaseId() : null;
  }

  private BasePaths resolved(ObjectStore own) {
    if (!proto.hasBaseId()) {
      return BasePaths.NONE;
    }
    if (bases == null) {
      throw new IllegalStateException("Data file " + path() + " names base path " + proto.getBaseId()
          + " but was not read from a manifest: " + own.location());
    }
    return bases;
  }

  /**
   * {@code file} with the slots of {@code fields} tombstoned, or empty when no live field is left
   * in it (a change that rewrites those fields drops such a file, as Lance's update_columns does).
   */
  public static Optional<TableProtos.DataFile> withoutFields(TableProtos.DataFile file, Set<Integer> fields) {
    TableProtos.DataFile.Builder d = file.toBuilder();
    boolean live = false;
    for (int i = 0; i < d.getFieldsCount(); i++) {
      if (fields.contains(d.getFields(i))) {
        d.setFields(i, TOMBSTONE);
      }
      live |= d.getFields(i) != TOMBSTONE;
    }
    return live ? Optional.of(d.build()) : Optional.empty();
  }

  public TableProtos.DataFile proto() {
    return proto;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DataFile && ((DataFile) o).proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return "DataFile{" + path() + ", fields=" + fields() + ", columns=" + columnIndices() + ", v"
        + fileMajorVersion() + "." + fileMinorVersion() + "}";
  }
}
