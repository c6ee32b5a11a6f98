package dev.javelin.table;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.rowids.FragmentRowIds;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowVersionSequence;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A fragment: an id, its data files (each holding some fields for all of its physical rows), an
 * optional deletion file, and (with stable row ids) row id and row version sequences. Immutable,
 * over its protobuf, so whatever Javelin does not interpret is carried unchanged.
 */
public final class Fragment {
  private final TableProtos.DataFragment proto;
  private final List<DataFile> files;
  // The manifest's base paths, when the fragment came from one (files under other bases resolve through them).
  private final BasePaths bases;

  private Fragment(TableProtos.DataFragment proto, BasePaths bases) {
    this.proto = proto;
    this.bases = bases;
    List<DataFile> fs = new ArrayList<>();
    for (TableProtos.DataFile f : proto.getFilesList()) {
      fs.add(DataFile.fromProto(f, bases));
    }
    this.files = Collections.unmodifiableList(fs);
  }

  public static Fragment fromProto(TableProtos.DataFragment proto) {
    return new Fragment(Objects.requireNonNull(proto), null);
  }

  static Fragment fromProto(TableProtos.DataFragment proto, BasePaths bases) {
    return new Fragment(Objects.requireNonNull(proto), bases);
  }

  /** A new fragment of one data file; its id is assigned when it is committed. */
  public static Fragment of(DataFile file, long physicalRows) {
    return new Fragment(TableProtos.DataFragment.newBuilder()
        .addFiles(file.proto())
        .setPhysicalRows(physicalRows)
        .build(), null);
  }

  public long id() {
    return proto.getId();
  }

  /** The same fragment with another id. */
  public Fragment withId(long id) {
    return new Fragment(proto.toBuilder().setId(id).build(), bases);
  }

  public List<DataFile> files() {
    return files;
  }

  /**
   * The fragment's data overlays (Javelin's extension), oldest first: a newer one shadows an
   * older one where both hold a row's field.
   */
  public List<Overlay> overlays() {
    List<Overlay> out = new ArrayList<>();
    proto.getJavelinOverlaysList().forEach(o -> out.add(Overlay.fromProto(o)));
    out.sort(Overlay.COMMIT_ORDER);
    return out;
  }

  /** The same fragment with one more overlay, newer than the others. */
  public Fragment withOverlay(Overlay overlay) {
    return new Fragment(proto.toBuilder().addJavelinOverlays(overlay.proto()).build(), bases);
  }

  public Optional<DeletionFile> deletionFile() {
    return proto.hasDeletionFile() ? Optional.of(DeletionFile.fromProto(proto.getDeletionFile(), bases)) : Optional.empty();
  }

  /** Rows in the data files, deleted rows included. */
  public long physicalRows() {
    return proto.getPhysicalRows();
  }

  /** Rows not deleted. */
  public long liveRows() {
    return physicalRows() - deletionFile().map(DeletionFile::numDeletedRows).orElse(0L);
  }

  /**
   * The stable row id of each physical row, inline or read from its external file; empty when the
   * dataset has no stable row ids. See {@link dev.javelin.table.rowids.FragmentRowIds}.
   */
  public Optional<RowIdSequence> rowIdSequence(ObjectStore store) {
    return FragmentRowIds.rowIds(this, store);
  }

  /** The version that created each physical row, when recorded. */
  public Optional<RowVersionSequence> createdAtVersions(
      ObjectStore store) {
    return FragmentRowIds.createdAt(this, store);
  }

  /** The version that last updated each physical row, when recorded. */
  public Optional<RowVersionSequence> lastUpdatedAtVersions(
      ObjectStore store) {
    return FragmentRowIds.lastUpdatedAt(this, store);
  }

  public TableProtos.DataFragment proto() {
    return proto;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Fragment && ((Fragment) o).proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return "Fragment{id=" + id() + ", rows=" + physicalRows() + ", files=" + files
        + (proto.getJavelinOverlaysCount() == 0 ? "" : ", overlays=" + overlays()) + "}";
  }
}
