package dev.javelin.core.internal.write;

import dev.javelin.table.exceptions.TableErrors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Checks data against a dataset's schema before anything is written. */
public final class SchemaCheck {
  private SchemaCheck() {}

  /**
   * Matches the incoming columns to the dataset's top-level fields by name.
   *
   * @return for each dataset field, the index of its column in {@code incoming}
   * @throws dev.javelin.table.exceptions.SchemaMismatchException naming the first field that is missing,
   *     extra, or of another type
   */
  public static int[] align(Schema dataset, Schema incoming, String location) {
    List<Field> want = dataset.getFields();
    List<Field> got = incoming.getFields();
    // Name -> first position, so a wide schema is matched in linear time.
    Map<String, Integer> gotAt = positions(got);
    int[] map = new int[want.size()];
    for (int i = 0; i < want.size(); i++) {
      Field w = want.get(i);
      int idx = gotAt.getOrDefault(w.getName(), -1);
      if (idx < 0) {
        throw TableErrors.schemaMismatch(location, w.getName(), "missing from the data");
      }
      String diff = difference(w, got.get(idx), w.getName());
      if (diff != null) {
        throw TableErrors.schemaMismatch(location, w.getName(), diff);
      }
      map[i] = idx;
    }
    Map<String, Integer> wantAt = positions(want);
    for (Field g : got) {
      if (!wantAt.containsKey(g.getName())) {
        throw TableErrors.schemaMismatch(location, g.getName(), "not in the dataset");
      }
    }
    return map;
  }

  private static Map<String, Integer> positions(List<Field> fields) {
    Map<String, Integer> out = new HashMap<>(fields.size() * 2);
    for (int i = 0; i < fields.size(); i++) {
      out.putIfAbsent(fields.get(i).getName(), i);
    }
    return out;
  }

  /** Whether two fields have the same type, children included (names of list items aside). */
  public static boolean sameType(Field a, Field b) {
    return difference(a, b, a.getName()) == null;
  }

  // A description of how two fields differ, or null. List item names are not part of the type.
  private static String difference(Field want, Field got, String path) {
    if (!want.getType().equals(got.getType())) {
      return path + " is " + got.getType() + " in the data but " + want.getType() + " in the dataset";
    }
    if (want.getChildren().size() != got.getChildren().size()) {
      return path + " has " + got.getChildren().size() + " children in the data but "
          + want.getChildren().size() + " in the dataset";
    }
    ArrowType.ArrowTypeID t = want.getType().getTypeID();
    boolean item = t == ArrowType.ArrowTypeID.List || t == ArrowType.ArrowTypeID.LargeList
        || t == ArrowType.ArrowTypeID.FixedSizeList || t == ArrowType.ArrowTypeID.Map;
    for (int i = 0; i < want.getChildren().size(); i++) {
      Field w = want.getChildren().get(i);
      Field g = got.getChildren().get(i);
      if (!item && !w.getName().equals(g.getName())) {
        return path + " has child '" + g.getName() + "' in the data where the dataset has '" + w.getName() + "'";
      }
      String d = difference(w, g, path + "." + w.getName());
      if (d != null) {
        return d;
      }
    }
    return null;
  }
}
