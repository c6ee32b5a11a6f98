package dev.javelin.core.compaction;

/** The kinds of compaction task. */
public enum TaskKind {
  /** Rewrite neighbouring fragments into new fragments (committed as a Rewrite). */
  REWRITE_FRAGMENTS("rewrite_fragments"),
  /** Repack one fragment's columns into fewer data files (committed as a DataReplacement). */
  REPACK_COLUMNS("repack_columns");

  private final String jsonName;

  TaskKind(String jsonName) {
    this.jsonName = jsonName;
  }

  /** The name in the JSON form of tasks and results. */
  public String jsonName() {
    return jsonName;
  }

  /** The kind a JSON name stands for; absent (null) means a fragment rewrite, as before kinds existed. */
  public static TaskKind fromJson(String name) {
    if (name == null) {
      return REWRITE_FRAGMENTS;
    }
    for (TaskKind k : values()) {
      if (k.jsonName.equals(name)) {
        return k;
      }
    }
    throw new IllegalArgumentException("Unknown compaction task kind '" + name + "'");
  }
}
