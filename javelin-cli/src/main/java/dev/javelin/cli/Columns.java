package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.List;

/** Checks column names against a dataset, so that a typo is answered with the names there are. */
final class Columns {
  private Columns() {}

  static List<String> check(Dataset ds, List<String> names) {
    List<String> all = new ArrayList<>();
    for (LanceField f : ds.schema().fields()) {
      all.add(f.name());
    }
    for (String n : names) {
      if (!all.contains(n)) {
        throw new InvalidInputException("No column '" + n + "' in " + ds.location() + " (its columns: "
            + String.join(", ", all) + ")");
      }
    }
    return names;
  }
}
