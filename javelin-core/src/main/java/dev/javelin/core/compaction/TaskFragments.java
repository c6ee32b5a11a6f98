package dev.javelin.core.compaction;

import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import java.util.ArrayList;
import java.util.List;

/** The fragments a task names, from the manifest of its read version. */
final class TaskFragments {
  private TaskFragments() {}

  static List<Fragment> of(Manifest m, CompactionTask task, String location) {
    List<Fragment> out = new ArrayList<>();
    for (long id : task.fragmentIds()) {
      out.add(m.fragments().stream().filter(f -> f.id() == id).findFirst()
          .orElseThrow(() -> new CompactionException("Fragment " + id + " of " + task + " is not in version "
              + m.version() + ": " + location)));
    }
    return out;
  }
}
