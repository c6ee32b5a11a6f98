package dev.javelin.table;

import dev.javelin.table.proto.TableProtos;
import java.util.Objects;

/**
 * The deleted rows of a fragment, stored in {@code _deletions/}. Immutable, over its protobuf.
 * (Reading and writing the file itself comes with deletes.)
 */
public final class DeletionFile {
  private final TableProtos.DeletionFile proto;

  private DeletionFile(TableProtos.DeletionFile proto) {
    this.proto = proto;
  }

  public static DeletionFile fromProto(TableProtos.DeletionFile proto) {
    return new DeletionFile(Objects.requireNonNull(proto));
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

  /** The file's key relative to the dataset root, {@code _deletions/{fragment}-{read version}-{id}.{arrow|bin}}. */
  public String key(long fragmentId) {
    return "_deletions/" + fragmentId + "-" + readVersion() + "-" + Long.toUnsignedString(id())
        + (isBitmap() ? ".bin" : ".arrow");
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
