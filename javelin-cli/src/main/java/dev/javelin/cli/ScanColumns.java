package dev.javelin.cli;

import dev.javelin.core.Dataset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The names {@code scan --columns} takes: top-level columns, fields of structs as dotted paths
 * ("address.city"), and the system columns a dataset has (_rowid and _rowaddr always; the row
 * versions with stable row ids). An unknown name is answered with every name there is.
 */
final class ScanColumns {
  static final List<String> ADDRESSES = List.of("_rowid", "_rowaddr");
  static final List<String> ROW_VERSIONS = List.of("_row_created_at_version", "_row_last_updated_at_version");

  private ScanColumns() {}

  /**
   * Each name as its path of field names.
   *
   * @throws InvalidInputException naming the first name the dataset does not have
   */
  static List<List<String>> resolve(Dataset ds, List<String> names) {
    List<Field> fields = ds.schema().toArrow().getFields();
    List<List<String>> out = new ArrayList<>();
    for (String name : names) {
      if (ADDRESSES.contains(name) || (ROW_VERSIONS.contains(name) && ds.hasStableRowIds())) {
        out.add(List.of(name));
        continue;
      }
      List<String> path = find(fields, name);
      if (path == null) {
        String why = ROW_VERSIONS.contains(name) ? " (row versions are kept only in datasets with stable row ids)" : "";
        throw new InvalidInputException("No column '" + name + "' in " + ds.location() + why + " (its columns: "
            + String.join(", ", available(ds, fields)) + ")");
      }
      out.add(path);
    }
    return out;
  }

  /** Whether any of the paths is a nested field. */
  static boolean nested(List<List<String>> paths) {
    for (List<String> p : paths) {
      if (p.size() > 1) {
        return true;
      }
    }
    return false;
  }

  // The path to a top-level column or a field of structs; a top-level name with a dot wins.
  private static List<String> find(List<Field> fields, String name) {
    for (Field f : fields) {
      if (f.getName().equals(name)) {
        return List.of(name);
      }
    }
    List<String> parts = Arrays.asList(name.split("\\.", -1));
    List<Field> level = fields;
    for (String part : parts) {
      Field found = null;
      for (Field f : level) {
        if (f.getName().equals(part)) {
          found = f;
        }
      }
      if (found == null) {
        return null;
      }
      level = found.getType().getTypeID() == ArrowType.ArrowTypeID.Struct ? found.getChildren() : List.of();
    }
    return parts.size() > 1 ? parts : null;
  }

  private static List<String> available(Dataset ds, List<Field> fields) {
    List<String> names = new ArrayList<>();
    for (Field f : fields) {
      add(names, f, "");
    }
    names.addAll(ADDRESSES);
    if (ds.hasStableRowIds()) {
      names.addAll(ROW_VERSIONS);
    }
    return names;
  }

  private static void add(List<String> names, Field f, String prefix) {
    names.add(prefix + f.getName());
    if (f.getType().getTypeID() == ArrowType.ArrowTypeID.Struct) {
      for (Field c : f.getChildren()) {
        add(names, c, prefix + f.getName() + ".");
      }
    }
  }
}
