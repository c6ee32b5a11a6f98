package dev.javelin.table;

import dev.javelin.table.proto.TableProtos;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A data overlay (Javelin's extension of the Lance format, see {@code docs/overlays.md}): newer
 * values of some fields for some rows of one fragment. Its file is a Lance file under
 * {@code data/} with a {@value #ROW_OFFSET} column (the physical offsets of the rows it holds,
 * strictly ascending) and one column per overlaid field; {@link #file()} lists the overlaid
 * fields as a data file would. A read takes a row's value from the newest overlay that holds it
 * and from the base data files otherwise. Immutable, over its protobuf.
 */
public final class Overlay {
  /** The name of the physical row offset column of an overlay file. */
  public static final String ROW_OFFSET = "_rowoffset";

  /** Oldest first: by committing version, uncommitted (0) last, ties kept in list order. */
  static final Comparator<Overlay> COMMIT_ORDER = Comparator.comparingLong(
      o -> o.committedVersion() == 0 ? Long.MAX_VALUE : o.committedVersion());

  private final TableProtos.Overlay proto;

  private Overlay(TableProtos.Overlay proto) {
    this.proto = proto;
  }

  public static Overlay fromProto(TableProtos.Overlay proto) {
    return new Overlay(Objects.requireNonNull(proto));
  }

  /**
   * A new, uncommitted overlay.
   *
   * @param file the overlay file (path relative to {@code data/}), listing the overlaid fields only
   * @param rows how many rows it holds
   */
  public static Overlay of(DataFile file, long rows) {
    return new Overlay(TableProtos.Overlay.newBuilder().setFile(file.proto()).setNumRows(rows).build());
  }

  /** The overlay file, its {@code fields} being the overlaid field ids (−2 once tombstoned). */
  public DataFile file() {
    return DataFile.fromProto(proto.getFile());
  }

  /** The overlay file's path, relative to the dataset's {@code data/} directory. */
  public String path() {
    return proto.getFile().getPath();
  }

  /** The overlaid field ids still live in it (tombstones left out). */
  public Set<Integer> fieldIds() {
    Set<Integer> out = new HashSet<>(proto.getFile().getFieldsList());
    out.remove(DataFile.TOMBSTONE);
    return out;
  }

  public long numRows() {
    return proto.getNumRows();
  }

  /** The version that committed it; 0 while it is only part of a transaction. */
  public long committedVersion() {
    return proto.getCommittedVersion();
  }

  public TableProtos.Overlay proto() {
    return proto;
  }

  /** The fragment with every uncommitted overlay stamped with {@code version}. */
  static TableProtos.DataFragment stamp(TableProtos.DataFragment f, long version) {
    if (f.getJavelinOverlaysList().stream().noneMatch(o -> o.getCommittedVersion() == 0)) {
      return f;
    }
    TableProtos.DataFragment.Builder b = f.toBuilder();
    for (int i = 0; i < b.getJavelinOverlaysCount(); i++) {
      if (b.getJavelinOverlays(i).getCommittedVersion() == 0) {
        b.setJavelinOverlays(i, b.getJavelinOverlays(i).toBuilder().setCommittedVersion(version));
      }
    }
    return b.build();
  }

  /**
   * The fragment with {@code fields} tombstoned in its overlays, and overlays left with no live
   * field removed: what a change that writes new base values of those fields for every row (a
   * column rewrite, a data replacement that changes data) does, since the overlays' values are
   * no longer newer than the base.
   */
  public static TableProtos.DataFragment withoutFields(TableProtos.DataFragment f, Set<Integer> fields) {
    if (f.getJavelinOverlaysCount() == 0) {
      return f;
    }
    List<TableProtos.Overlay> kept = new ArrayList<>();
    for (TableProtos.Overlay o : f.getJavelinOverlaysList()) {
      DataFile.withoutFields(o.getFile(), fields).ifPresent(d -> kept.add(o.toBuilder().setFile(d).build()));
    }
    return f.toBuilder().clearJavelinOverlays().addAllJavelinOverlays(kept).build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Overlay && ((Overlay) o).proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return "Overlay{" + path() + ", fields=" + fieldIds() + ", rows=" + numRows() + ", v" + committedVersion() + "}";
  }
}
