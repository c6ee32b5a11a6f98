package dev.javelin.core;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Which data file of a fragment holds each wanted top-level field, found by field id (a fragment
 * may have several data files, each holding some fields; only one holds a field live).
 */
final class FragmentFiles {
  /** One data file to read and the names, in that file, of the fields to read from it. */
  static final class Part {
    final DataFile file;
    /** Field ids to read from this file. */
    final List<Integer> fieldIds = new ArrayList<>();
    /** For each output position filled from this file, its index in {@link #fieldIds}. */
    final Map<Integer, Integer> outputs = new LinkedHashMap<>();

    Part(DataFile file) {
      this.file = file;
    }
  }

  private FragmentFiles() {}

  /**
   * Plans the reads of {@code fields} (top-level dataset fields) from a fragment.
   *
   * @throws IllegalStateException naming fragment and field when no data file holds a field
   *     (all-null columns added by schema evolution come later)
   */
  static List<Part> plan(Fragment fragment, List<LanceField> fields, String location) {
    Map<String, Part> parts = new LinkedHashMap<>();
    for (int out = 0; out < fields.size(); out++) {
      LanceField f = fields.get(out);
      // A file holds a nested field if it lists the field or any field under it: Lance leaves
      // 2.1 structs and lists (which have no column) out of DataFile.fields, Javelin lists them.
      List<Integer> ids = new ArrayList<>();
      for (LanceField x : f.flatten()) {
        ids.add(x.id());
      }
      DataFile holder = null;
      for (DataFile d : fragment.files()) {
        if (d.fields().stream().anyMatch(ids::contains)) {
          holder = d;
        }
      }
      if (holder == null) {
        throw new IllegalStateException("Fragment " + fragment.id() + " has no data file holding field '" + f.name()
            + "' (id " + f.id() + "): " + location);
      }
      if (holder.hasBaseId()) {
        throw new UnsupportedOperationException("Data file " + holder.path() + " lives under another base path, "
            + "which Javelin does not read yet: " + location);
      }
      Part p = parts.get(holder.path());
      if (p == null) {
        p = new Part(holder);
        parts.put(holder.path(), p);
      }
      p.outputs.put(out, p.fieldIds.size());
      p.fieldIds.add(f.id());
    }
    return new ArrayList<>(parts.values());
  }

  /** Opens a part's data file. The caller closes it. */
  static LanceFileReader open(ObjectStore store, Part part, BufferAllocator allocator) throws IOException {
    return LanceFileReader.open(store.open("data/" + part.file.path()), allocator);
  }

  /** The names the file itself uses for the part's field ids (files are matched by id, not name). */
  static List<String> columnNames(LanceFileReader reader, Part part, String location) {
    List<String> names = new ArrayList<>();
    for (int id : part.fieldIds) {
      String name = null;
      for (LanceField f : reader.lanceSchema().fields()) {
        if (f.id() == id) {
          name = f.name();
        }
      }
      if (name == null) {
        throw new IllegalStateException("Data file " + part.file.path() + " does not hold field id " + id
            + " that the manifest says it does: " + location);
      }
      names.add(name);
    }
    return names;
  }
}
