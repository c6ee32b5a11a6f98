package dev.javelin.core.compaction;

import dev.javelin.format.schema.LanceField;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which files of one fragment hold which top-level columns, as the repack planner and executor
 * see it. A file "holds" a column when it has one of its value fields (a struct's own id is a V2.0
 * header, not values); it "owns" a column when it has any of its ids, header included, so moving
 * the column empties it of that column.
 */
final class FragmentColumns {
  static final String BLOB_KEY = "lance-encoding:blob";

  final Fragment fragment;
  final List<LanceField> columns;
  /** Files with at least one schema field, in fragment order. */
  final List<DataFile> liveFiles = new ArrayList<>();
  final Map<Integer, List<DataFile>> holders = new LinkedHashMap<>();
  final Map<Integer, List<DataFile>> owners = new LinkedHashMap<>();
  final Map<DataFile, Set<Integer>> owned = new LinkedHashMap<>();
  final Set<Integer> pinned = new HashSet<>();
  final boolean legacy;

  FragmentColumns(Fragment fragment, List<LanceField> columns) {
    this.fragment = fragment;
    this.columns = columns;
    boolean old = false;
    for (DataFile d : fragment.files()) {
      old |= d.fileMajorVersion() < 2;
      owned.put(d, new LinkedHashSet<>());
    }
    this.legacy = old;
    for (LanceField c : columns) {
      Set<Integer> all = new HashSet<>();
      Set<Integer> values = new HashSet<>();
      boolean blob = false;
      for (LanceField x : c.flatten()) {
        all.add(x.id());
        if (!x.isStruct()) {
          values.add(x.id());
        }
        blob |= "true".equals(x.metadata().get(BLOB_KEY));
      }
      List<DataFile> h = new ArrayList<>();
      List<DataFile> o = new ArrayList<>();
      for (DataFile d : fragment.files()) {
        if (d.fields().stream().anyMatch(values::contains)) {
          h.add(d);
        }
        if (d.fields().stream().anyMatch(all::contains)) {
          o.add(d);
          owned.get(d).add(c.id());
        }
      }
      holders.put(c.id(), h);
      owners.put(c.id(), o);
      // A blob stays where it is; a column split over files cannot be moved as one.
      if (blob || h.size() > 1) {
        pinned.add(c.id());
      }
    }
    for (DataFile d : fragment.files()) {
      if (!owned.get(d).isEmpty()) {
        liveFiles.add(d);
      }
    }
  }

  boolean filePinned(DataFile d) {
    return owned.get(d).stream().anyMatch(pinned::contains);
  }

  /** Whether every file owning the column is in {@code set}, one of them holding its values. */
  boolean movableFrom(int column, Set<DataFile> set) {
    if (pinned.contains(column)) {
      return false;
    }
    List<DataFile> h = holders.get(column);
    return h.size() == 1 && set.contains(h.get(0)) && set.containsAll(owners.get(column));
  }

  /** Leaves in {@code set} only files whose every owned column can move out of the set. */
  Set<DataFile> closure(Set<DataFile> set) {
    Set<DataFile> c = new LinkedHashSet<>(set);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (DataFile d : new ArrayList<>(c)) {
        if (owned.get(d).stream().anyMatch(col -> !movableFrom(col, c))) {
          c.remove(d);
          changed = true;
        }
      }
    }
    return c;
  }

  /** The columns the files own, in schema order. */
  List<Integer> ownedBy(Set<DataFile> files) {
    List<Integer> out = new ArrayList<>();
    for (LanceField c : columns) {
      if (files.stream().anyMatch(d -> owned.get(d).contains(c.id()))) {
        out.add(c.id());
      }
    }
    return out;
  }

  /** The bytes of the files holding values of these columns (what a repack of them reads). */
  long bytesToRead(List<Integer> cols) {
    Set<DataFile> read = new LinkedHashSet<>();
    cols.forEach(c -> read.addAll(holders.get(c)));
    return read.stream().mapToLong(DataFile::fileSizeBytes).sum();
  }
}
