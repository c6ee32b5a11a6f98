package dev.javelin.core.compaction;

import java.io.Serializable;
import java.util.List;

/** The tasks one run will execute, all planned on one version. */
public final class CompactionPlan implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long readVersion;
  private final List<CompactionTask> tasks;
  private final CompactionOptions options;

  public CompactionPlan(long readVersion, List<CompactionTask> tasks, CompactionOptions options) {
    this.readVersion = readVersion;
    this.tasks = List.copyOf(tasks);
    this.options = options;
  }

  public long readVersion() {
    return readVersion;
  }

  public List<CompactionTask> tasks() {
    return tasks;
  }

  /** The options, with table config applied. */
  public CompactionOptions options() {
    return options;
  }

  @Override
  public String toString() {
    return "CompactionPlan{v" + readVersion + ", " + tasks + "}";
  }
}
