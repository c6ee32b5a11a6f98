package dev.javelin.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Random Arrow data of any (nested) type for tests: values are generated as plain Java objects
 * (null, byte[] for fixed-width bytes, byte[] for strings and binaries, List for lists and
 * fixed-size lists, Object[] for structs) and written into vectors.
 */
public final class ArrowData {
  private ArrowData() {}

  public static Field field(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.nullable(type), List.of(children));
  }

  public static Field notNull(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.notNullable(type), List.of(children));
  }

  public static Field list(String name, Field item) {
    return field(name, ArrowType.List.INSTANCE, item);
  }

  public static Field largeList(String name, Field item) {
    return field(name, ArrowType.LargeList.INSTANCE, item);
  }

  public static Field struct(String name, Field... kids) {
    return field(name, ArrowType.Struct.INSTANCE, kids);
  }

  public static Field fsl(String name, int dim, Field item) {
    return field(name, new ArrowType.FixedSizeList(dim), item);
  }

  /** Every primitive type the 2.1 encoding covers. */
  public static List<Field> primitives() {
    List<Field> f = new ArrayList<>();
    f.add(field("bool", ArrowType.Bool.INSTANCE));
    for (int bits : new int[] {8, 16, 32, 64}) {
      f.add(field("int" + bits, new ArrowType.Int(bits, true)));
      f.add(field("uint" + bits, new ArrowType.Int(bits, false)));
    }
    f.add(field("f16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)));
    f.add(field("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
    f.add(field("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)));
    f.add(field("utf8", ArrowType.Utf8.INSTANCE));
    f.add(field("large_utf8", ArrowType.LargeUtf8.INSTANCE));
    f.add(field("binary", ArrowType.Binary.INSTANCE));
    f.add(field("large_binary", ArrowType.LargeBinary.INSTANCE));
    f.add(field("date32", new ArrowType.Date(DateUnit.DAY)));
    f.add(field("date64", new ArrowType.Date(DateUnit.MILLISECOND)));
    f.add(field("time32s", new ArrowType.Time(TimeUnit.SECOND, 32)));
    f.add(field("time32ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)));
    f.add(field("time64us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)));
    f.add(field("time64ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)));
    for (TimeUnit u : TimeUnit.values()) {
      f.add(field("ts_" + u, new ArrowType.Timestamp(u, null)));
      f.add(field("tstz_" + u, new ArrowType.Timestamp(u, "UTC")));
    }
    f.add(field("tstz_other", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")));
    f.add(field("decimal", new ArrowType.Decimal(38, 4, 128)));
    f.add(field("fsb", new ArrowType.FixedSizeBinary(5)));
    return f;
  }

  /** Byte width of a fixed-width Arrow type, or -1 for variable width and nested types. */
  public static int width(ArrowType t) {
    switch (t.getTypeID()) {
      case Int:
        return ((ArrowType.Int) t).getBitWidth() / 8;
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) t).getPrecision()) {
          case HALF:
            return 2;
          case SINGLE:
            return 4;
          default:
            return 8;
        }
      case Date:
        return ((ArrowType.Date) t).getUnit() == DateUnit.DAY ? 4 : 8;
      case Time:
        return ((ArrowType.Time) t).getBitWidth() / 8;
      case Timestamp:
      case Duration:
        return 8;
      case Decimal:
        return 16;
      case FixedSizeBinary:
        return ((ArrowType.FixedSizeBinary) t).getByteWidth();
      default:
        return -1;
    }
  }

  /** Options for random values. */
  public static final class Gen {
    public final Random random;
    public double nullRate = 0.1;
    public double emptyRate = 0.1;
    public int maxList = 4;
    public int maxString = 12;
    public int minString = 0;
    /** Names of fields that are always null. */
    public final Set<String> alwaysNull = new HashSet<>();

    public Gen(long seed) {
      this.random = new Random(seed);
    }
  }

  public static Object random(Field f, Gen g) {
    if (f.isNullable() && (g.alwaysNull.contains(f.getName()) || g.random.nextDouble() < g.nullRate)) {
      return null;
    }
    ArrowType t = f.getType();
    Random r = g.random;
    switch (t.getTypeID()) {
      case Bool:
        return r.nextBoolean();
      case Utf8:
      case LargeUtf8: {
        int len = g.minString + r.nextInt(g.maxString - g.minString + 1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < len; i++) {
          b.append(r.nextInt(10) == 0 ? 'é' : (char) ('a' + r.nextInt(26)));
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
      }
      case Binary:
      case LargeBinary: {
        byte[] b = new byte[g.minString + r.nextInt(g.maxString - g.minString + 1)];
        r.nextBytes(b);
        return b;
      }
      case List:
      case LargeList: {
        int n = r.nextDouble() < g.emptyRate ? 0 : 1 + r.nextInt(g.maxList);
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          items.add(random(f.getChildren().get(0), g));
        }
        return items;
      }
      case FixedSizeList: {
        int n = ((ArrowType.FixedSizeList) t).getListSize();
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          items.add(random(f.getChildren().get(0), g));
        }
        return items;
      }
      case Struct: {
        Object[] kids = new Object[f.getChildren().size()];
        for (int i = 0; i < kids.length; i++) {
          kids[i] = random(f.getChildren().get(i), g);
        }
        return kids;
      }
      default: {
        int w = width(t);
        byte[] b = new byte[w];
        r.nextBytes(b);
        if (t.getTypeID() == ArrowType.ArrowTypeID.Timestamp || t.getTypeID() == ArrowType.ArrowTypeID.Date
            || t.getTypeID() == ArrowType.ArrowTypeID.Time) {
          // Keep dates and times in a range getObject can convert.
          long v = r.nextInt(1 << 30);
          for (int i = 0; i < w; i++) {
            b[i] = (byte) (v >>> (8 * i));
          }
        }
        return b;
      }
    }
  }

  /** Writes a value at index i (the vector's children grow as needed). */
  @SuppressWarnings("unchecked")
  public static void set(FieldVector v, int i, Object value) {
    if (v instanceof ListVector) {
      ListVector lv = (ListVector) v;
      if (value == null) {
        lv.setNull(i);
        return;
      }
      List<Object> items = (List<Object>) value;
      int start = lv.startNewValue(i);
      for (int k = 0; k < items.size(); k++) {
        set(lv.getDataVector(), start + k, items.get(k));
      }
      lv.endValue(i, items.size());
      return;
    }
    if (v instanceof LargeListVector) {
      LargeListVector lv = (LargeListVector) v;
      if (value == null) {
        lv.setNull(i);
        return;
      }
      List<Object> items = (List<Object>) value;
      long start = lv.startNewValue(i);
      for (int k = 0; k < items.size(); k++) {
        set(lv.getDataVector(), (int) start + k, items.get(k));
      }
      lv.endValue(i, items.size());
      return;
    }
    if (v instanceof FixedSizeListVector) {
      FixedSizeListVector fv = (FixedSizeListVector) v;
      int dim = fv.getListSize();
      List<Object> items = (List<Object>) value;
      if (value == null) {
        fv.setNull(i);
      } else {
        fv.setNotNull(i);
      }
      for (int k = 0; k < dim; k++) {
        set(fv.getDataVector(), i * dim + k, items == null ? null : items.get(k));
      }
      return;
    }
    if (v instanceof StructVector) {
      StructVector sv = (StructVector) v;
      Object[] kids = (Object[]) value;
      if (value == null) {
        sv.setNull(i);
      } else {
        sv.setIndexDefined(i);
      }
      for (int k = 0; k < sv.getChildrenFromFields().size(); k++) {
        set(sv.getChildrenFromFields().get(k), i, kids == null ? null : kids[k]);
      }
      return;
    }
    if (v instanceof BitVector) {
      BitVector b = (BitVector) v;
      if (value == null) {
        b.setNull(i);
      } else {
        b.setSafe(i, ((Boolean) value) ? 1 : 0);
      }
      return;
    }
    if (v instanceof BaseVariableWidthVector) {
      BaseVariableWidthVector b = (BaseVariableWidthVector) v;
      if (value == null) {
        b.setNull(i);
      } else {
        b.setSafe(i, (byte[]) value);
      }
      return;
    }
    if (v instanceof BaseLargeVariableWidthVector) {
      BaseLargeVariableWidthVector b = (BaseLargeVariableWidthVector) v;
      if (value == null) {
        b.setNull(i);
      } else {
        b.setSafe(i, (byte[]) value);
      }
      return;
    }
    BaseFixedWidthVector b = (BaseFixedWidthVector) v;
    while (i >= b.getValueCapacity()) {
      b.reAlloc();
    }
    if (value == null) {
      b.setNull(i);
    } else {
      byte[] bytes = (byte[]) value;
      ArrowBuf data = b.getDataBuffer();
      data.setBytes((long) i * bytes.length, bytes);
      BitVectorHelper.setBit(b.getValidityBuffer(), i);
    }
  }

  /** A root holding the given rows (one value per field per row). */
  public static VectorSchemaRoot root(Schema schema, List<Object[]> rows, BufferAllocator a) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, a);
    root.allocateNew();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < schema.getFields().size(); c++) {
        set(root.getVector(c), r, rows.get(r)[c]);
      }
    }
    root.setRowCount(rows.size());
    return root;
  }

  public static List<Object[]> randomRows(Schema schema, int n, Gen g) {
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      Object[] row = new Object[schema.getFields().size()];
      for (int c = 0; c < row.length; c++) {
        row[c] = random(schema.getFields().get(c), g);
      }
      rows.add(row);
    }
    return rows;
  }
}
