package dev.javelin.core.internal.scan;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.TableErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Which data file of a fragment holds each wanted top-level field, found by field id (a fragment
 * may have several data files, each holding some fields; only one holds a field live). A field
 * no data file holds (an all-null column added as metadata only, or a column added after the
 * fragment was written) reads as nulls: it gets no part, and {@link #fillNulls} fills its slot.
 */
public final class FragmentFiles {
  /** One data file to read and the names, in that file, of the fields to read from it. */
  public static final class Part {
    final DataFile file;
    /** Field ids to read from this file. */
    final List<Integer> fieldIds = new ArrayList<>();
    /** The dataset's fields read from this file, parallel to {@link #fieldIds}. */
    final List<LanceField> wanted = new ArrayList<>();
    /**
     * The same fields as the file has them (set by {@link #columnNames}), parallel to
     * {@link #fieldIds}. Replaced whole, never modified: parallel scans share one part between
     * the readers of a fragment's row ranges, and each sets the same list.
     */
    volatile List<LanceField> inFile = List.of();
    /** For each output position filled from this file, its index in {@link #fieldIds}. */
    public final Map<Integer, Integer> outputs = new LinkedHashMap<>();
    /**
     * Read only to learn how many rows each batch has (every wanted field reads as nulls here):
     * one column of the file is read and nothing of it is output.
     */
    public boolean rowsOnly;

    Part(DataFile file) {
      this.file = file;
    }
  }

  private FragmentFiles() {}

  /**
   * Plans the reads of {@code fields} (top-level dataset fields) from a fragment.
   *
   * <p>Fields no data file holds get no part. When no wanted field is held at all, one
   * {@link Part#rowsOnly} part still streams the fragment's row counts.
   *
   * @throws dev.javelin.table.exceptions.CorruptManifestException when the fragment has no data file at all
   */
  public static List<Part> plan(Fragment fragment, List<LanceField> fields, String location) {
    Map<String, Part> parts = new LinkedHashMap<>();
    // Field id -> the last data file listing it (a later file holds a field over an earlier one),
    // so planning is linear in the number of fields, however wide the schema.
    List<DataFile> files = fragment.files();
    Map<Integer, Integer> lastFile = new HashMap<>();
    for (int j = 0; j < files.size(); j++) {
      for (int id : files.get(j).fields()) {
        lastFile.put(id, j);
      }
    }
    for (int out = 0; out < fields.size(); out++) {
      LanceField f = fields.get(out);
      // A file holds a nested field if it lists the field or any field under it: Lance leaves
      // 2.1 structs and lists (which have no column) out of DataFile.fields, Javelin lists them.
      int last = -1;
      for (LanceField x : f.flatten()) {
        last = Math.max(last, lastFile.getOrDefault(x.id(), -1));
      }
      DataFile holder = last < 0 ? null : files.get(last);
      if (holder == null) {
        continue; // all nulls in this fragment
      }
      Part p = parts.get(holder.path());
      if (p == null) {
        p = new Part(holder);
        parts.put(holder.path(), p);
      }
      p.outputs.put(out, p.fieldIds.size());
      p.fieldIds.add(f.id());
      p.wanted.add(f);
    }
    if (parts.isEmpty() && !fields.isEmpty()) {
      if (fragment.files().isEmpty()) {
        throw TableErrors.corrupt(location, "Fragment " + fragment.id()
            + " has no data file to read its " + fragment.physicalRows() + " rows from");
      }
      Part p = new Part(fragment.files().get(0));
      p.rowsOnly = true;
      return List.of(p);
    }
    return new ArrayList<>(parts.values());
  }

  /** Opens a part's data file. The caller closes it. */
  public static LanceFileReader open(ObjectStore store, Part part, BufferAllocator allocator) throws IOException {
    return LanceFileReader.open(part.file.store(store).open(part.file.key(store), part.file.fileSizeBytes()),
        allocator);
  }

  /**
   * Opens a part's data file with its metadata from a {@link DataFileCache} (parsed once per
   * session), for reads of a few rows, where parsing it would be much of the work. The caller
   * closes it.
   */
  static LanceFileReader openCached(DataFileCache cache, ObjectStore store, Part part, BufferAllocator allocator)
      throws IOException {
    return cache.open(part.file.store(store), part.file.key(store), part.file.fileSizeBytes(), allocator);
  }

  /** The names the file itself uses for the part's field ids (files are matched by id, not name). */
  public static List<String> columnNames(LanceFileReader reader, Part part, String location) {
    List<String> names = new ArrayList<>();
    if (part.rowsOnly) {
      // Any top-level field the manifest still lists as live in this file counts the rows.
      Set<Integer> live = new HashSet<>(part.file.fields());
      for (LanceField f : reader.lanceSchema().fields()) {
        if (f.flatten().stream().anyMatch(x -> live.contains(x.id()))) {
          names.add(f.name());
          break;
        }
      }
      if (names.isEmpty()) {
        throw TableErrors.corrupt(location, "Data file " + part.file.path() + " holds none of the fields "
            + part.file.fields() + " the manifest lists for it");
      }
      return names;
    }
    List<LanceField> held = new ArrayList<>();
    for (int i = 0; i < part.fieldIds.size(); i++) {
      int id = part.fieldIds.get(i);
      LanceField inFile = reader.lanceSchema().topLevelField(id).orElse(null);
      if (inFile == null) {
        throw TableErrors.corrupt(location, "Data file " + part.file.path() + " does not hold field id " + id
            + " that the manifest says it does");
      }
      // The file may hold nested fields the dataset dropped since (see complete()); it cannot
      // lack nested fields the dataset has, since nested fields are only ever added with a new
      // top-level column.
      LanceField want = part.wanted.get(i);
      if (!ids(inFile).containsAll(ids(want))) {
        throw TableErrors.corrupt(location, "Field '" + want.name() + "' in data file " + part.file.path()
            + " has nested fields " + ids(inFile) + " but the dataset has " + ids(want));
      }
      held.add(inFile);
      names.add(inFile.name());
    }
    part.inFile = List.copyOf(held);
    return names;
  }

  private static Set<Integer> ids(LanceField f) {
    Set<Integer> out = new TreeSet<>();
    f.flatten().forEach(x -> out.add(x.id()));
    return out;
  }

  /**
   * Makes the vectors read for a fragment match the dataset's fields: a vector whose file field
   * still holds nested fields the dataset dropped is rebuilt without them, and every empty slot
   * becomes nulls ({@link #fillNulls}). Returns the vectors made, which the caller closes.
   */
  public static List<FieldVector> complete(FieldVector[] out, List<Part> parts, List<LanceField> fields, int rows,
      BufferAllocator allocator) {
    List<FieldVector> made = new ArrayList<>();
    try {
      for (Part p : parts) {
        for (var e : p.outputs.entrySet()) {
          LanceField file = p.inFile.get(e.getValue());
          LanceField want = p.wanted.get(e.getValue());
          if (!ids(file).equals(ids(want))) {
            FieldVector v = NestedPrune.prune(out[e.getKey()], file, want, allocator);
            made.add(v);
            out[e.getKey()] = v;
          }
        }
      }
      made.addAll(fillNulls(out, fields, rows, allocator));
      return made;
    } catch (RuntimeException e) {
      made.forEach(FieldVector::close);
      throw e;
    }
  }

  /**
   * Fills every empty slot of {@code out} (a field no data file of the fragment holds) with a
   * vector of {@code rows} nulls. Returns the vectors made, which the caller closes.
   */
  static List<FieldVector> fillNulls(FieldVector[] out, List<LanceField> fields, int rows, BufferAllocator allocator) {
    List<FieldVector> made = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        FieldVector v = fields.get(i).toArrow().createVector(allocator);
        made.add(v);
        v.setInitialCapacity(Math.max(rows, 1));
        v.allocateNew(); // zeroed validity: every row null, offsets all 0
        v.setValueCount(rows);
        out[i] = v;
      }
    }
    return made;
  }
}
