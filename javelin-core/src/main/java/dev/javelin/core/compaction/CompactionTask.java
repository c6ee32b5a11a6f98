package dev.javelin.core.compaction;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One unit of compaction work, planned on one version: rewrite these neighbouring fragments, or
 * repack this fragment's columns into the planned files. Serializable (Java and {@link #toJson()})
 * so a coordinator can hand tasks to workers; a task without a kind (from before repacks existed)
 * is a fragment rewrite.
 */
public final class CompactionTask implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TaskKind kind;
  private final long readVersion;
  private final List<Long> fragmentIds;
  private final List<List<Integer>> repackFiles;
  private final CompactionOptions options;

  CompactionTask(TaskKind kind, long readVersion, List<Long> fragmentIds, List<List<Integer>> repackFiles,
      CompactionOptions options) {
    this.kind = kind;
    this.readVersion = readVersion;
    this.fragmentIds = List.copyOf(fragmentIds);
    List<List<Integer>> files = new ArrayList<>();
    repackFiles.forEach(f -> files.add(List.copyOf(f)));
    this.repackFiles = List.copyOf(files);
    this.options = options;
  }

  /** The kind of task; a fragment rewrite when the task was made before kinds existed. */
  public TaskKind kind() {
    return kind == null ? TaskKind.REWRITE_FRAGMENTS : kind;
  }

  /** The version the task was planned on (and is executed against). */
  public long readVersion() {
    return readVersion;
  }

  /** The fragments it rewrites, in manifest order, or the one fragment it repacks. */
  public List<Long> fragmentIds() {
    return fragmentIds;
  }

  /**
   * For a repack: the new files to write, each as the field ids of the top-level columns it
   * holds. Empty for a rewrite.
   */
  public List<List<Integer>> repackFiles() {
    return repackFiles == null ? List.of() : repackFiles;
  }

  public CompactionOptions options() {
    return options == null ? CompactionOptions.defaults() : options;
  }

  /** The JSON form (options: the ones an executor uses). */
  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind().jsonName());
    m.put("read_version", readVersion);
    m.put("fragments", fragmentIds);
    m.put("repack_files", repackFiles());
    CompactionOptions o = options();
    Map<String, Object> opts = new LinkedHashMap<>();
    opts.put("target_rows_per_fragment", o.targetRowsPerFragment());
    opts.put("max_rows_per_group", (long) o.maxRowsPerGroup());
    opts.put("max_bytes_per_file", o.maxBytesPerFile().isPresent() ? o.maxBytesPerFile().getAsLong() : null);
    opts.put("batch_size", (long) o.batchSize());
    opts.put("mode", o.mode().name());
    opts.put("defer_index_remap", o.deferIndexRemap());
    m.put("options", opts);
    return MiniJson.write(m);
  }

  /**
   * Reads {@link #toJson()}'s form; a missing {@code kind} reads as a fragment rewrite, missing
   * options as the defaults.
   *
   * @throws IllegalArgumentException if the JSON is not a task
   */
  public static CompactionTask fromJson(String json) {
    try {
      Map<?, ?> m = (Map<?, ?>) MiniJson.parse(json);
      TaskKind kind = TaskKind.fromJson((String) m.get("kind"));
      long readVersion = (Long) m.get("read_version");
      List<Long> ids = new ArrayList<>();
      for (Object o : (List<?>) m.get("fragments")) {
        ids.add((Long) o);
      }
      List<List<Integer>> files = new ArrayList<>();
      Object rf = m.get("repack_files");
      if (rf != null) {
        for (Object f : (List<?>) rf) {
          List<Integer> fields = new ArrayList<>();
          for (Object x : (List<?>) f) {
            fields.add(((Long) x).intValue());
          }
          files.add(fields);
        }
      }
      CompactionOptions.Builder b = CompactionOptions.builder();
      Map<?, ?> opts = (Map<?, ?>) m.get("options");
      if (opts != null) {
        if (opts.get("target_rows_per_fragment") != null) {
          b.targetRowsPerFragment((Long) opts.get("target_rows_per_fragment"));
        }
        if (opts.get("max_rows_per_group") != null) {
          b.maxRowsPerGroup(((Long) opts.get("max_rows_per_group")).intValue());
        }
        if (opts.get("max_bytes_per_file") != null) {
          b.maxBytesPerFile((Long) opts.get("max_bytes_per_file"));
        }
        if (opts.get("batch_size") != null) {
          b.batchSize(((Long) opts.get("batch_size")).intValue());
        }
        if (opts.get("defer_index_remap") != null) {
          b.deferIndexRemap((Boolean) opts.get("defer_index_remap"));
        }
        if (opts.get("mode") != null) {
          String mode = (String) opts.get("mode");
          try {
            b.mode(CompactionMode.valueOf(mode));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Unknown compaction mode '" + mode + "'", e);
          }
        }
      }
      return new CompactionTask(kind, readVersion, ids, files, b.build());
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("Not a compaction task: " + json, e);
    }
  }

  @Override
  public String toString() {
    return "CompactionTask{" + kind().jsonName() + ", v" + readVersion + ", fragments=" + fragmentIds
        + (repackFiles().isEmpty() ? "" : ", files=" + repackFiles) + "}";
  }
}
