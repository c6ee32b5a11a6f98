package dev.javelin.compat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

/**
 * Compares two tables of Arrow batches column by column and row by row, by value: {@code Text} and
 * {@code String} alike, byte arrays by content, large and small types through the same
 * {@code getObject} view, nested values element by element. A failure names the column, the row,
 * the path inside a nested value, and the expected and actual values.
 */
final class VectorAssertions {
  private VectorAssertions() {}

  /**
   * Fails unless both tables have the same columns (names and types; list item names and field
   * nullability are not compared) and the same values in every row.
   *
   * @param context what is being compared (seed, file, shape), put in every failure message
   */
  static void assertTablesEqual(Table expected, Table actual, String context) {
    fail(firstDifference(expected, null, null, actual), context);
  }

  /**
   * Fails unless {@code actual} holds, row by row, the given rows of the given columns of
   * {@code expected}.
   *
   * @param rows rows of {@code expected}, in the order {@code actual} should hold them; null for all
   * @param columns columns of {@code expected} by name, in the order {@code actual} should hold
   *     them; null for all
   */
  static void assertRowsEqual(Table expected, long[] rows, List<String> columns, Table actual, String context) {
    fail(firstDifference(expected, rows, columns, actual), context);
  }

  private static void fail(String diff, String context) {
    if (diff != null) {
      throw new AssertionError(diff + "\n  [" + context + "]");
    }
  }

  /** The first difference between the selected part of {@code expected} and {@code actual}, or null. */
  static String firstDifference(Table expected, long[] rows, List<String> columns, Table actual) {
    int[] cols;
    if (columns == null) {
      cols = new int[expected.columnCount()];
      for (int i = 0; i < cols.length; i++) {
        cols[i] = i;
      }
    } else {
      cols = new int[columns.size()];
      for (int i = 0; i < cols.length; i++) {
        cols[i] = expected.columnIndex(columns.get(i));
        if (cols[i] < 0) {
          throw new IllegalArgumentException("Expected table has no column '" + columns.get(i) + "'");
        }
      }
    }
    List<Field> want = new ArrayList<>();
    for (int c : cols) {
      want.add(expected.schema().getFields().get(c));
    }
    String schemaDiff = schemaDifference(new Schema(want), actual.schema());
    if (schemaDiff != null) {
      return schemaDiff;
    }
    int n = rows == null ? expected.rowCount() : rows.length;
    if (n != actual.rowCount()) {
      return "Row count: expected " + n + " but was " + actual.rowCount();
    }
    for (int i = 0; i < cols.length; i++) {
      String d = columnDifference(expected, cols[i], rows, actual, i);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  /**
   * Fails unless the schemas have the same fields, types and nullability. The item of a
   * fixed-size list is exempt from the nullability check: Lance has no field for it, so it always
   * reads back nullable. Item names of lists are not compared either.
   */
  static void assertSameSchema(Schema expected, Schema actual, String context) {
    fail(schemaDifference(expected, actual, true), context);
  }

  /** The first difference between two schemas (names, types, children), or null. */
  static String schemaDifference(Schema expected, Schema actual) {
    return schemaDifference(expected, actual, false);
  }

  /** As {@link #schemaDifference(Schema, Schema)}, also comparing nullability when asked. */
  static String schemaDifference(Schema expected, Schema actual, boolean nullability) {
    List<Field> e = expected.getFields();
    List<Field> a = actual.getFields();
    if (e.size() != a.size()) {
      return "Column count: expected " + e.size() + " " + names(e) + " but was " + a.size() + " " + names(a);
    }
    for (int i = 0; i < e.size(); i++) {
      String d = fieldDifference(e.get(i), a.get(i), e.get(i).getName(), false, nullability);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  private static List<String> names(List<Field> fields) {
    List<String> out = new ArrayList<>();
    fields.forEach(f -> out.add(f.getName()));
    return out;
  }

  private static String fieldDifference(Field e, Field a, String path, boolean isItem, boolean nullability) {
    if (!isItem && !e.getName().equals(a.getName())) {
      return "Field " + path + ": expected name '" + e.getName() + "' but was '" + a.getName() + "'";
    }
    if (nullability && e.isNullable() != a.isNullable()) {
      return "Field " + path + ": expected " + (e.isNullable() ? "nullable" : "not null") + " but was "
          + (a.isNullable() ? "nullable" : "not null");
    }
    if (!e.getType().equals(a.getType())) {
      return "Field " + path + ": expected type " + e.getType() + " but was " + a.getType();
    }
    if (e.getChildren().size() != a.getChildren().size()) {
      return "Field " + path + ": expected " + e.getChildren().size() + " children but was "
          + a.getChildren().size();
    }
    ArrowType.ArrowTypeID id = e.getType().getTypeID();
    boolean items = id == ArrowType.ArrowTypeID.List || id == ArrowType.ArrowTypeID.LargeList
        || id == ArrowType.ArrowTypeID.FixedSizeList;
    for (int i = 0; i < e.getChildren().size(); i++) {
      Field ec = e.getChildren().get(i);
      boolean fslItem = id == ArrowType.ArrowTypeID.FixedSizeList;
      String d = fieldDifference(ec, a.getChildren().get(i), path + "." + (items ? "item" : ec.getName()), items,
          nullability && !fslItem);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  private static String columnDifference(Table expected, int ec, long[] rows, Table actual, int ac) {
    String first = null;
    int differing = 0;
    int n = actual.rowCount();
    for (int r = 0; r < n; r++) {
      int er = rows == null ? r : Math.toIntExact(rows[r]);
      Object e = normalize(expected.getObject(ec, er));
      Object a = normalize(actual.getObject(ac, r));
      Diff d = valueDifference(e, a, "");
      if (d != null) {
        differing++;
        if (first == null) {
          Field f = expected.schema().getFields().get(ec);
          first = "Column '" + f.getName() + "' (" + f.getType() + ") row " + r
              + (rows == null ? "" : " (expected row " + er + ")")
              + (d.path.isEmpty() ? "" : " at " + d.path) + ": expected " + show(d.expected) + " but was "
              + show(d.actual)
              + (d.path.isEmpty() ? "" : "; whole value: expected " + show(e) + " but was " + show(a));
        }
      }
    }
    if (first != null && differing > 1) {
      first += " (" + differing + " rows of " + n + " differ in this column)";
    }
    return first;
  }

  /** Where two normalized values first differ, and the values there. */
  private static final class Diff {
    final String path;
    final Object expected;
    final Object actual;

    Diff(String path, Object expected, Object actual) {
      this.path = path;
      this.expected = expected;
      this.actual = actual;
    }
  }

  // The first difference inside two normalized values, or null when equal.
  private static Diff valueDifference(Object e, Object a, String path) {
    if (e instanceof List && a instanceof List) {
      List<?> el = (List<?>) e;
      List<?> al = (List<?>) a;
      for (int i = 0; i < Math.min(el.size(), al.size()); i++) {
        Diff d = valueDifference(el.get(i), al.get(i), path + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      return el.size() == al.size() ? null : new Diff(path, e, a);
    }
    if (e instanceof Map && a instanceof Map) {
      Map<?, ?> em = (Map<?, ?>) e;
      Map<?, ?> am = (Map<?, ?>) a;
      if (!em.keySet().equals(am.keySet())) {
        return new Diff(path, e, a);
      }
      for (Object k : em.keySet()) {
        Diff d = valueDifference(em.get(k), am.get(k), path + "." + k);
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (e == null ? a == null : e.equals(a)) {
      return null;
    }
    return new Diff(path, e, a);
  }

  /**
   * The comparable form of a {@code getObject} value: {@code Text} becomes {@code String},
   * {@code byte[]} a {@link Bytes}, lists and struct maps are normalized element by element.
   */
  static Object normalize(Object v) {
    if (v instanceof Text) {
      return v.toString();
    }
    if (v instanceof byte[]) {
      return new Bytes((byte[]) v);
    }
    if (v instanceof List) {
      List<Object> out = new ArrayList<>();
      for (Object o : (List<?>) v) {
        out.add(normalize(o));
      }
      return out;
    }
    if (v instanceof Map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> out.put(k, normalize(x)));
      return out;
    }
    return v;
  }

  private static String show(Object v) {
    String s = v instanceof String ? "\"" + v + "\"" : String.valueOf(v);
    return s.length() > 300 ? s.substring(0, 300) + "...(" + s.length() + " chars)" : s;
  }

  /** A byte array compared by content. */
  static final class Bytes {
    private final byte[] bytes;

    Bytes(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes && Arrays.equals(bytes, ((Bytes) o).bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("0x");
      for (int i = 0; i < Math.min(bytes.length, 48); i++) {
        b.append(String.format("%02x", bytes[i]));
      }
      return bytes.length > 48 ? b + "...(" + bytes.length + " bytes)" : b.toString();
    }
  }
}
