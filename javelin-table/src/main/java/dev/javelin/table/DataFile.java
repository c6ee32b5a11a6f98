package dev.javelin.table;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.proto.TableProtos;
import java.util.List;
import java.util.Objects;

/**
 * One Lance file of a fragment: which fields it holds ({@code fields[i]} is a field id, −2 for a
 * tombstoned one) and each field's column in the file ({@code columnIndices[i]}, −1 for none).
 * Immutable; backed by its protobuf, so fields Javelin does not know are kept.
 */
public final class DataFile {
  /** A field id slot that no longer holds a field. */
  public static final int TOMBSTONE = -2;

  private final TableProtos.DataFile proto;

  private DataFile(TableProtos.DataFile proto) {
    this.proto = proto;
  }

  public static DataFile fromProto(TableProtos.DataFile proto) {
    return new DataFile(Objects.requireNonNull(proto));
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
    return new DataFile(b.build());
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

  /** Whether the file lives under another base path (not supported by Javelin's reader yet). */
  public boolean hasBaseId() {
    return proto.hasBaseId();
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
