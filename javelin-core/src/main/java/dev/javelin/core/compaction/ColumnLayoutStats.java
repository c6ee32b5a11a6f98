package dev.javelin.core.compaction;

import dev.javelin.format.schema.LanceField;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How each fragment's columns are spread over data files, from manifest metadata alone: the files
 * holding at least one schema field, each one's recorded size and schema-field count, and the
 * share of field slots holding no live data (tombstoned, or left by a dropped column). The
 * repack planner's file-count trigger counts {@link FragmentStats#dataFiles()}.
 */
public final class ColumnLayoutStats {
  private final List<FragmentStats> fragments;

  private ColumnLayoutStats(List<FragmentStats> fragments) {
    this.fragments = List.copyOf(fragments);
  }

  /** The stats of a version. */
  public static ColumnLayoutStats of(Manifest manifest) {
    Set<Integer> live = new HashSet<>();
    for (LanceField f : manifest.schema().flatten()) {
      live.add(f.id());
    }
    List<FragmentStats> out = new ArrayList<>();
    for (Fragment f : manifest.fragments()) {
      out.add(fragment(f, live));
    }
    return new ColumnLayoutStats(out);
  }

  static FragmentStats fragment(Fragment f, Set<Integer> live) {
    List<FileStats> files = new ArrayList<>();
    long slots = 0;
    long dead = 0;
    for (DataFile d : f.files()) {
      int schemaFields = 0;
      for (int id : d.fields()) {
        if (live.contains(id)) {
          schemaFields++;
        }
      }
      slots += d.fields().size();
      dead += d.fields().size() - schemaFields;
      if (schemaFields > 0) {
        files.add(new FileStats(d.path(), d.fileSizeBytes(), schemaFields, d.fields().size()));
      }
    }
    return new FragmentStats(f.id(), files, slots == 0 ? 0 : (double) dead / slots, f.overlays().size());
  }

  /** One entry per fragment, in manifest order. */
  public List<FragmentStats> fragments() {
    return fragments;
  }

  /** The stats of one fragment, or null if the version has no such fragment. */
  public FragmentStats fragment(long id) {
    return fragments.stream().filter(f -> f.fragmentId == id).findFirst().orElse(null);
  }

  @Override
  public String toString() {
    return "ColumnLayoutStats" + fragments;
  }

  /** One fragment's layout. */
  public static final class FragmentStats {
    private final long fragmentId;
    private final List<FileStats> files;
    private final double deadSlotShare;
    private final int overlays;

    FragmentStats(long fragmentId, List<FileStats> files, double deadSlotShare, int overlays) {
      this.fragmentId = fragmentId;
      this.files = List.copyOf(files);
      this.deadSlotShare = deadSlotShare;
      this.overlays = overlays;
    }

    public long fragmentId() {
      return fragmentId;
    }

    /** How many data files hold at least one schema field. */
    public int dataFiles() {
      return files.size();
    }

    /** Those files, in the fragment's order. */
    public List<FileStats> files() {
      return files;
    }

    /** Share of all field slots of the fragment's files that hold no schema field (0 when none). */
    public double deadSlotShare() {
      return deadSlotShare;
    }

    /** Data overlays over the fragment (a repack leaves them; a fragment rewrite folds them). */
    public int overlays() {
      return overlays;
    }

    @Override
    public String toString() {
      return "Fragment{" + fragmentId + ", files=" + files + ", dead=" + deadSlotShare + "}";
    }
  }

  /** One data file holding schema fields. */
  public static final class FileStats {
    private final String path;
    private final long sizeBytes;
    private final int schemaFields;
    private final int slots;

    FileStats(String path, long sizeBytes, int schemaFields, int slots) {
      this.path = path;
      this.sizeBytes = sizeBytes;
      this.schemaFields = schemaFields;
      this.slots = slots;
    }

    public String path() {
      return path;
    }

    /** The size recorded in the manifest (0 when the writer recorded none). */
    public long sizeBytes() {
      return sizeBytes;
    }

    /** Field slots holding a field of the schema. */
    public int schemaFields() {
      return schemaFields;
    }

    /** All field slots, dead ones included. */
    public int slots() {
      return slots;
    }

    @Override
    public String toString() {
      return path + "(" + sizeBytes + " B, " + schemaFields + "/" + slots + ")";
    }
  }
}
