package dev.javelin.table;

import dev.javelin.format.proto.FileProtos;
import dev.javelin.table.deletion.DeletionFiles;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * The consistency checks of a manifest that has just been parsed, so that a damaged one fails
 * when it is opened, naming the file and what is wrong, instead of reading wrong rows. Lance
 * manifests carry no checksum; these are the invariants every writer keeps (Lance's
 * {@code DataFile::validate} and {@code Dataset::validate}, and what a reader relies on):
 *
 * <ul>
 *   <li>the version inside the file is the one its name gives;
 *   <li>fragment ids are unique, ascending and not above {@code max_fragment_id};
 *   <li>each data file holds a field and has one column index per field; its field ids are not
 *       negative (but for the −2 tombstone; ids the schema lacks are dropped columns, which Lance
 *       leaves in the files), its column indices are −1 or distinct and below its field count;
 *   <li>no field is held live by two data files of a fragment (or twice by one);
 *   <li>every fragment has a data file, and every non-nullable field (under non-nullable parents
 *       only) is held by one of its files, so a read can never produce a NULL for it;
 *   <li>a fragment has physical rows, and its deletion file deletes no more than it has (the
 *       deletion file itself must then hold that many rows: see {@link DeletionFiles#read});
 *   <li>index uuids are 16 bytes and unique, and fragment bitmaps parse; a user index (not a
 *       {@code __lance_*} system entry, whose bitmap is provenance) names schema fields, covers
 *       only fragment ids handed out so far (present ones, or retired ones, which indices keep
 *       for reordered or not-yet-remapped fragments), and its deltas cover disjoint fragments.
 * </ul>
 *
 * Linear in the size of the manifest: the per-fragment field checks are memoized by the
 * fragment's field lists, which are shared by most fragments.
 */
public final class ManifestValidator {
  private final Manifest manifest;
  private final String file;
  // The version the file is named for (else the one it holds), for messages.
  private long version;
  private final Map<Integer, FileProtos.Field> fields = new HashMap<>();
  // Non-nullable fields whose ancestors are all non-nullable: a read must find them in a file.
  private final List<FileProtos.Field> required = new ArrayList<>();
  // Field and column lists already checked (most fragments share one layout).
  private final Set<List<List<Integer>>> checkedLayouts = new HashSet<>();

  private ManifestValidator(Manifest manifest, String file) {
    this.manifest = manifest;
    this.file = file;
  }

  /**
   * Checks a parsed manifest.
   *
   * @param file where it was read from, for messages (its last path segment, when it is a
   *     manifest name, gives the version the file must hold)
   * @throws CorruptManifestException naming the version, the file and the first inconsistency
   */
  static void validate(Manifest manifest, String file) {
    new ManifestValidator(manifest, file).run();
  }

  private void run() {
    String name = file.substring(file.lastIndexOf('/') + 1);
    OptionalLong named = ManifestNaming.version(name);
    version = named.orElse(manifest.version());
    if (named.isPresent() && named.getAsLong() != manifest.version()) {
      throw invalid("the file holds version " + Long.toUnsignedString(manifest.version()) + " but is named for version "
          + Long.toUnsignedString(named.getAsLong()));
    }
    manifest.schema(); // throws CorruptManifestException if the schema does not build
    for (FileProtos.Field f : manifest.proto().getFieldsList()) {
      fields.put(f.getId(), f);
    }
    for (FileProtos.Field f : manifest.proto().getFieldsList()) {
      if (!f.getNullable() && ancestorsRequired(f)) {
        required.add(f);
      }
    }
    long highest = checkFragments();
    checkIndices(highest);
  }

  private boolean ancestorsRequired(FileProtos.Field f) {
    int depth = 0;
    for (FileProtos.Field p = fields.get(f.getParentId()); p != null; p = fields.get(p.getParentId())) {
      if (p.getNullable() || ++depth > 64) {
        return false;
      }
    }
    return true;
  }

  // Returns the highest fragment id handed out (max_fragment_id, or the highest id present), or -1.
  private long checkFragments() {
    OptionalLong max = manifest.maxFragmentId();
    long previous = -1;
    for (Fragment f : manifest.fragments()) {
      String where = "fragment " + Long.toUnsignedString(f.id());
      if (previous >= 0 && Long.compareUnsigned(f.id(), previous) <= 0) {
        throw invalid(where + (f.id() == previous ? " appears twice" : " comes after fragment " + previous
            + " (fragments must be in ascending id order)"));
      }
      previous = f.id();
      if (max.isPresent() && Long.compareUnsigned(f.id(), max.getAsLong()) > 0) {
        throw invalid(where + " is above max_fragment_id " + max.getAsLong());
      }
      if (f.files().isEmpty()) {
        throw invalid(where + " has no data file");
      }
      if (f.physicalRows() <= 0) {
        throw invalid(where + " has " + Long.toUnsignedString(f.physicalRows()) + " physical rows");
      }
      if (f.deletionFile().isPresent()
          && Long.compareUnsigned(f.deletionFile().get().numDeletedRows(), f.physicalRows()) > 0) {
        throw invalid(where + " deletes " + Long.toUnsignedString(f.deletionFile().get().numDeletedRows())
            + " rows but has only " + f.physicalRows());
      }
      List<List<Integer>> layout = new ArrayList<>(2 * f.files().size());
      for (DataFile d : f.files()) {
        if (d.path().isEmpty()) {
          throw invalid(where + " has a data file without a path");
        }
        layout.add(d.fields());
        layout.add(d.columnIndices());
      }
      if (checkedLayouts.add(layout)) {
        checkFiles(f, where);
      }
    }
    return max.isPresent() ? Math.max(max.getAsLong(), previous) : previous;
  }

  private void checkFiles(Fragment f, String where) {
    Set<Integer> held = new HashSet<>();
    for (DataFile d : f.files()) {
      String at = where + ", data file " + d.path();
      List<Integer> ids = d.fields();
      List<Integer> columns = d.columnIndices();
      if (ids.isEmpty()) {
        throw invalid(at + " holds no field");
      }
      // Legacy (0.x) files have no column indices (Javelin does not read them, but may list them).
      boolean legacy = d.fileMajorVersion() == 0 && d.fileMinorVersion() < 3;
      if (!legacy && ids.size() != columns.size()) {
        throw invalid(at + " lists " + ids.size() + " fields but " + columns.size() + " column indices");
      }
      Set<Integer> seenColumns = new HashSet<>();
      for (int i = 0; i < ids.size(); i++) {
        int id = ids.get(i);
        int column = legacy ? -1 : columns.get(i);
        if (id == DataFile.TOMBSTONE) {
          continue;
        }
        if (id < 0) {
          throw invalid(at + " holds field id " + id);
        }
        // An id the schema lacks is a dropped column: Lance's drop_columns leaves data files as
        // they are. Field ids are never reused, so it cannot be mistaken for a live field.
        if (fields.containsKey(id) && !held.add(id)) {
          throw invalid(at + " holds field " + describe(id) + ", which another file of the fragment (or this one) "
              + "already holds");
        }
        if (column < -1 || column >= ids.size()) {
          throw invalid(at + " puts field " + describe(id) + " in column " + column + ", outside 0.." + (ids.size() - 1));
        }
        if (column >= 0 && !seenColumns.add(column)) {
          throw invalid(at + " puts two fields in column " + column);
        }
      }
    }
    // A field is read from the file holding it, a descendant of it, or an ancestor (a packed struct).
    Set<Integer> heldOrAbove = new HashSet<>(held);
    for (int id : held) {
      FileProtos.Field p = fields.get(fields.get(id).getParentId());
      while (p != null && heldOrAbove.add(p.getId())) {
        p = fields.get(p.getParentId());
      }
    }
    for (FileProtos.Field r : required) {
      if (!heldOrAbove.contains(r.getId()) && !ancestorHeld(r, held)) {
        throw invalid(where + " has no data file holding the non-nullable field " + describe(r.getId()));
      }
    }
  }

  private boolean ancestorHeld(FileProtos.Field f, Set<Integer> held) {
    for (FileProtos.Field p = fields.get(f.getParentId()); p != null; p = fields.get(p.getParentId())) {
      if (held.contains(p.getId())) {
        return true;
      }
    }
    return false;
  }

  private void checkIndices(long highestFragment) {
    Set<String> uuids = new HashSet<>();
    Map<String, RoaringBitmap> coveredByName = new HashMap<>();
    for (IndexMetadata i : manifest.indices()) {
      String where = "index '" + i.name() + "'";
      byte[] uuid = i.uuidBytes().toByteArray();
      if (uuid.length != 16) {
        throw invalid(where + " has a uuid of " + uuid.length + " bytes, not 16");
      }
      if (!uuids.add(Cleanup.uuid(uuid))) {
        throw invalid(where + " has the uuid " + Cleanup.uuid(uuid) + " of another index");
      }
      RoaringBitmap covered;
      try {
        covered = i.fragmentBitmap();
      } catch (CorruptManifestException e) {
        throw invalid(where + " has a fragment bitmap that does not parse", e);
      }
      if (i.isSystem()) {
        continue; // system entries' fields and bitmaps are provenance, never coverage
      }
      if (!covered.isEmpty() && (highestFragment < 0
          || Long.compareUnsigned(Integer.toUnsignedLong(covered.last()), highestFragment) > 0)) {
        throw invalid(where + " covers fragment " + Integer.toUnsignedString(covered.last())
            + ", an id never handed out (the highest is " + highestFragment + ")");
      }
      for (int id : i.fields()) {
        if (!fields.containsKey(id)) {
          throw invalid(where + " indexes field id " + id + ", which the schema does not have");
        }
      }
      RoaringBitmap others = coveredByName.computeIfAbsent(i.name(), k -> new RoaringBitmap());
      if (RoaringBitmap.intersects(others, covered)) {
        throw invalid(where + " has deltas that both cover fragments "
            + RoaringBitmap.and(others, covered));
      }
      others.or(covered);
    }
  }

  private String describe(int id) {
    FileProtos.Field f = fields.get(id);
    return f == null ? "id " + id : "'" + f.getName() + "' (id " + id + ")";
  }

  private CorruptManifestException invalid(String what) {
    return invalid(what, null);
  }

  private CorruptManifestException invalid(String what, Throwable cause) {
    return TableErrors.invalidManifest(file, version, what, cause);
  }
}
