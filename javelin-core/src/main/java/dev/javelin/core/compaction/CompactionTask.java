package dev.javelin.core.compaction;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

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
    ObjectNode m = Json.object();
    m.put("kind", kind().jsonName());
    m.put("read_version", readVersion);
    fragmentIds.forEach(m.putArray("fragments")::add);
    ArrayNode files = m.putArray("repack_files");
    repackFiles().forEach(f -> f.forEach(files.addArray()::add));
    CompactionOptions o = options();
    ObjectNode opts = m.putObject("options");
    opts.put("target_rows_per_fragment", o.targetRowsPerFragment());
    opts.put("max_rows_per_group", o.maxRowsPerGroup());
    opts.put("max_bytes_per_file", o.maxBytesPerFile().isPresent() ? o.maxBytesPerFile().getAsLong() : null);
    opts.put("batch_size", o.batchSize());
    opts.put("mode", o.mode().name());
    opts.put("defer_index_remap", o.deferIndexRemap());
    return Json.write(m);
  }

  /**
   * Reads {@link #toJson()}'s form; a missing {@code kind} reads as a fragment rewrite, missing
   * options as the defaults.
   *
   * @throws IllegalArgumentException if the JSON is not a task
   */
  public static CompactionTask fromJson(String json) {
    JsonNode m = parse(json, "task");
    TaskKind kind = TaskKind.fromJson(text(m.get("kind"), json));
    long readVersion = whole(m.get("read_version"), json);
    List<Long> ids = new ArrayList<>();
    for (JsonNode o : list(m.get("fragments"), json)) {
      ids.add(whole(o, json));
    }
    List<List<Integer>> files = new ArrayList<>();
    JsonNode rf = m.get("repack_files");
    if (rf != null && !rf.isNull()) {
      for (JsonNode f : list(rf, json)) {
        List<Integer> fields = new ArrayList<>();
        for (JsonNode x : list(f, json)) {
          fields.add((int) whole(x, json));
        }
        files.add(fields);
      }
    }
    CompactionOptions.Builder b = CompactionOptions.builder();
    JsonNode opts = m.get("options");
    if (opts != null && !opts.isNull()) {
      if (!opts.isObject()) {
        throw notATask(json, null);
      }
      if (present(opts, "target_rows_per_fragment")) {
        b.targetRowsPerFragment(whole(opts.get("target_rows_per_fragment"), json));
      }
      if (present(opts, "max_rows_per_group")) {
        b.maxRowsPerGroup((int) whole(opts.get("max_rows_per_group"), json));
      }
      if (present(opts, "max_bytes_per_file")) {
        b.maxBytesPerFile(whole(opts.get("max_bytes_per_file"), json));
      }
      if (present(opts, "batch_size")) {
        b.batchSize((int) whole(opts.get("batch_size"), json));
      }
      if (present(opts, "defer_index_remap")) {
        JsonNode d = opts.get("defer_index_remap");
        if (!d.isBoolean()) {
          throw notATask(json, null);
        }
        b.deferIndexRemap(d.booleanValue());
      }
      if (present(opts, "mode")) {
        String mode = text(opts.get("mode"), json);
        try {
          b.mode(CompactionMode.valueOf(mode));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("Unknown compaction mode '" + mode + "'", e);
        }
      }
    }
    return new CompactionTask(kind, readVersion, ids, files, b.build());
  }

  // The JSON of a task or result ("what", for messages) as an object.
  static JsonNode parse(String json, String what) {
    JsonNode m;
    try {
      m = Json.tree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a compaction " + what + ": " + json, e);
    }
    if (!m.isObject()) {
      throw new IllegalArgumentException("Not a compaction " + what + ": " + json);
    }
    return m;
  }

  private static boolean present(JsonNode o, String key) {
    return o.get(key) != null && !o.get(key).isNull();
  }

  // A whole number that fits a long.
  private static long whole(JsonNode n, String json) {
    if (n == null || !n.isIntegralNumber() || !n.canConvertToLong()) {
      throw notATask(json, null);
    }
    return n.longValue();
  }

  // A string, or null if absent or null.
  private static String text(JsonNode n, String json) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isTextual()) {
      throw notATask(json, null);
    }
    return n.textValue();
  }

  private static JsonNode list(JsonNode n, String json) {
    if (n == null || !n.isArray()) {
      throw notATask(json, null);
    }
    return n;
  }

  private static IllegalArgumentException notATask(String json, Throwable cause) {
    return new IllegalArgumentException("Not a compaction task: " + json, cause);
  }

  @Override
  public String toString() {
    return "CompactionTask{" + kind().jsonName() + ", v" + readVersion + ", fragments=" + fragmentIds
        + (repackFiles().isEmpty() ? "" : ", files=" + repackFiles) + "}";
  }
}
