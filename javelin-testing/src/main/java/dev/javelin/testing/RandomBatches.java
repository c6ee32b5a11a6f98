package dev.javelin.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
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
 * Random Arrow batches of every type file format 2.0 supports, filled vector by vector, and a
 * canonical form of values to compare what a file reads back with what was written.
 */
public final class RandomBatches {
  private RandomBatches() {}

  public static Field field(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.nullable(type), children.length == 0 ? null : List.of(children));
  }

  public static Field item(ArrowType type, Field... children) {
    return field("item", type, children);
  }

  public static final ArrowType INT32 = new ArrowType.Int(32, true);
  public static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;

  /** Fixed-width and boolean leaf types. */
  public static List<Field> fixedFields() {
    return List.of(
        field("bool", ArrowType.Bool.INSTANCE),
        field("i8", new ArrowType.Int(8, true)),
        field("i16", new ArrowType.Int(16, true)),
        field("i32", INT32),
        field("i64", new ArrowType.Int(64, true)),
        field("u8", new ArrowType.Int(8, false)),
        field("u16", new ArrowType.Int(16, false)),
        field("u32", new ArrowType.Int(32, false)),
        field("u64", new ArrowType.Int(64, false)),
        field("f16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
        field("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
        field("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        field("date32", new ArrowType.Date(DateUnit.DAY)),
        field("date64", new ArrowType.Date(DateUnit.MILLISECOND)),
        field("time32s", new ArrowType.Time(TimeUnit.SECOND, 32)),
        field("time32ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
        field("time64us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
        field("time64ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)),
        field("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
        field("ts_ms_tz", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
        field("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
        field("ts_us_tz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")),
        field("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
        field("ts_ns_tz", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC")),
        field("dur_us", new ArrowType.Duration(TimeUnit.MICROSECOND)),
        field("dec128", new ArrowType.Decimal(20, 3, 128)),
        field("dec256", new ArrowType.Decimal(40, 5, 256)),
        field("fsb5", new ArrowType.FixedSizeBinary(5)));
  }

  public static List<Field> binaryFields() {
    return List.of(
        field("utf8", UTF8),
        field("large_utf8", ArrowType.LargeUtf8.INSTANCE),
        field("binary", ArrowType.Binary.INSTANCE),
        field("large_binary", ArrowType.LargeBinary.INSTANCE),
        field("lowcard", UTF8));
  }

  public static List<Field> nestedFields() {
    return List.of(
        field("vec", new ArrowType.FixedSizeList(4), item(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))),
        field("fsl_bool", new ArrowType.FixedSizeList(3), item(ArrowType.Bool.INSTANCE)),
        field("fsl_fsl", new ArrowType.FixedSizeList(2),
            item(new ArrowType.FixedSizeList(3), item(new ArrowType.Int(16, true)))),
        field("list_i32", ArrowType.List.INSTANCE, item(INT32)),
        field("large_list_utf8", ArrowType.LargeList.INSTANCE, item(UTF8)),
        field("list_bool", ArrowType.List.INSTANCE, item(ArrowType.Bool.INSTANCE)),
        field("list_struct", ArrowType.List.INSTANCE,
            item(ArrowType.Struct.INSTANCE, field("a", INT32), field("b", UTF8))),
        field("struct", ArrowType.Struct.INSTANCE,
            field("x", new ArrowType.Int(64, true)),
            field("l", ArrowType.List.INSTANCE, item(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))),
            field("s", ArrowType.Struct.INSTANCE, field("y", ArrowType.Bool.INSTANCE), field("z", ArrowType.Binary.INSTANCE))),
        field("list_list", ArrowType.List.INSTANCE, item(ArrowType.List.INSTANCE, item(INT32))),
        field("list_fsl", ArrowType.List.INSTANCE,
            item(new ArrowType.FixedSizeList(2), item(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)))),
        field("large_list_large_list", ArrowType.LargeList.INSTANCE,
            item(ArrowType.LargeList.INSTANCE, item(ArrowType.LargeBinary.INSTANCE))),
        field("all_null", INT32),
        field("all_null_utf8", UTF8),
        field("all_null_list", ArrowType.List.INSTANCE, item(INT32)));
  }

  public static Schema allTypes() {
    List<Field> all = new ArrayList<>(fixedFields());
    all.addAll(binaryFields());
    all.addAll(nestedFields());
    return new Schema(all);
  }

  /**
   * The schema the vectors of a root report. Arrow Java names every list child "$data$", and
   * the writer compares batches with its schema by name, so tests create files with this one.
   */
  public static Schema vectorSchema(VectorSchemaRoot root) {
    List<Field> fields = new ArrayList<>();
    for (FieldVector v : root.getFieldVectors()) {
      fields.add(v.getField());
    }
    return new Schema(fields);
  }

  /** A batch of {@code rows} random rows; the caller closes it. */
  public static VectorSchemaRoot batch(Schema schema, int rows, Random random, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    for (FieldVector v : root.getFieldVectors()) {
      double nullRate = v.getName().startsWith("all_null") ? 1.0 : pick(random, 0.0, 0.1, 0.5);
      populate(v, rows, random, nullRate);
    }
    root.setRowCount(rows);
    return root;
  }

  private static double pick(Random r, double... options) {
    return options[r.nextInt(options.length)];
  }

  private static final String[] WORDS = {"red", "green", "", "blue", "a much longer colour name"};

  /** Fills {@code v} with {@code n} random values. */
  public static void populate(FieldVector v, int n, Random r, double nullRate) {
    if (v instanceof StructVector) {
      StructVector s = (StructVector) v;
      s.allocateNew();
      for (FieldVector c : s.getChildrenFromFields()) {
        populate(c, n, r, nullRate);
      }
      for (int i = 0; i < n; i++) {
        if (r.nextDouble() < nullRate) {
          s.setNull(i);
        } else {
          s.setIndexDefined(i);
        }
      }
      s.setValueCount(n);
    } else if (v instanceof FixedSizeListVector) {
      FixedSizeListVector l = (FixedSizeListVector) v;
      l.allocateNew();
      populate(l.getDataVector(), n * l.getListSize(), r, nullRate / 2);
      for (int i = 0; i < n; i++) {
        if (r.nextDouble() < nullRate) {
          l.setNull(i);
        } else {
          l.setNotNull(i);
        }
      }
      l.setValueCount(n);
    } else if (v instanceof ListVector || v instanceof LargeListVector) {
      populateList(v, n, r, nullRate);
    } else if (v instanceof BitVector) {
      BitVector b = (BitVector) v;
      b.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (r.nextDouble() < nullRate) {
          b.setNull(i);
        } else {
          b.set(i, r.nextInt(2));
        }
      }
      b.setValueCount(n);
    } else if (v instanceof BaseFixedWidthVector) {
      BaseFixedWidthVector f = (BaseFixedWidthVector) v;
      f.allocateNew(n);
      int w = f.getTypeWidth();
      byte[] bytes = new byte[w];
      for (int i = 0; i < n; i++) {
        if (r.nextDouble() < nullRate) {
          f.setNull(i);
        } else {
          r.nextBytes(bytes);
          f.getDataBuffer().setBytes((long) i * w, bytes);
          BitVectorHelper.setBit(f.getValidityBuffer(), i);
        }
      }
      f.setValueCount(n);
    } else if (v instanceof BaseVariableWidthVector || v instanceof BaseLargeVariableWidthVector) {
      v.allocateNew();
      boolean lowCard = v.getName().equals("lowcard");
      for (int i = 0; i < n; i++) {
        if (r.nextDouble() < nullRate) {
          v.setNull(i);
          continue;
        }
        byte[] value;
        if (lowCard) {
          value = WORDS[r.nextInt(WORDS.length)].getBytes();
        } else {
          value = new byte[r.nextInt(10) == 0 ? r.nextInt(300) : r.nextInt(12)];
          r.nextBytes(value);
        }
        if (v instanceof BaseVariableWidthVector) {
          ((BaseVariableWidthVector) v).setSafe(i, value);
        } else {
          ((BaseLargeVariableWidthVector) v).setSafe(i, value);
        }
      }
      v.setValueCount(n);
    } else {
      throw new IllegalArgumentException("No generator for " + v.getField());
    }
  }

  private static void populateList(FieldVector v, int n, Random r, double nullRate) {
    boolean large = v instanceof LargeListVector;
    int[] lengths = new int[n];
    boolean[] nulls = new boolean[n];
    int total = 0;
    for (int i = 0; i < n; i++) {
      nulls[i] = r.nextDouble() < nullRate;
      // Empty lists, short lists, and now and then a long one; some null lists keep items.
      lengths[i] = nulls[i] && r.nextBoolean() ? 0 : (r.nextInt(8) == 0 ? r.nextInt(40) : r.nextInt(4));
      total += lengths[i];
    }
    FieldVector data = large ? ((LargeListVector) v).getDataVector() : ((ListVector) v).getDataVector();
    v.allocateNew();
    populate(data, total, r, nullRate / 2);
    for (int i = 0; i < n; i++) {
      if (large) {
        LargeListVector l = (LargeListVector) v;
        l.startNewValue(i);
        l.endValue(i, lengths[i]);
      } else {
        ListVector l = (ListVector) v;
        l.startNewValue(i);
        l.endValue(i, lengths[i]);
      }
      if (nulls[i]) {
        BitVectorHelper.unsetBit(v.getValidityBuffer(), i);
      }
    }
    v.setValueCount(n);
  }

  /**
   * A canonical form of value {@code i}: null, hex bytes for fixed-width and binary values,
   * Boolean for booleans, lists for lists. Struct validity is left out: Lance 2.0 does not store
   * it, so a null struct reads back as a struct of its children's values.
   */
  public static Object canon(FieldVector v, int i) {
    if (v instanceof StructVector) {
      List<Object> out = new ArrayList<>();
      for (FieldVector c : ((StructVector) v).getChildrenFromFields()) {
        out.add(canon(c, i));
      }
      return out;
    }
    if (v.isNull(i)) {
      return null;
    }
    if (v instanceof FixedSizeListVector) {
      FixedSizeListVector l = (FixedSizeListVector) v;
      int d = l.getListSize();
      List<Object> out = new ArrayList<>();
      for (int k = 0; k < d; k++) {
        out.add(canon(l.getDataVector(), i * d + k));
      }
      return out;
    }
    if (v instanceof ListVector) {
      ListVector l = (ListVector) v;
      List<Object> out = new ArrayList<>();
      for (int k = l.getElementStartIndex(i); k < l.getElementEndIndex(i); k++) {
        out.add(canon(l.getDataVector(), k));
      }
      return out;
    }
    if (v instanceof LargeListVector) {
      LargeListVector l = (LargeListVector) v;
      List<Object> out = new ArrayList<>();
      long s = l.getOffsetBuffer().getLong((long) i * 8);
      long e = l.getOffsetBuffer().getLong((long) i * 8 + 8);
      for (long k = s; k < e; k++) {
        out.add(canon(l.getDataVector(), (int) k));
      }
      return out;
    }
    if (v instanceof BitVector) {
      return ((BitVector) v).get(i) == 1;
    }
    if (v instanceof BaseFixedWidthVector) {
      BaseFixedWidthVector f = (BaseFixedWidthVector) v;
      byte[] b = new byte[f.getTypeWidth()];
      f.getDataBuffer().getBytes((long) i * b.length, b);
      return HexFormat.of().formatHex(b);
    }
    if (v instanceof BaseVariableWidthVector) {
      return HexFormat.of().formatHex(((BaseVariableWidthVector) v).get(i));
    }
    if (v instanceof BaseLargeVariableWidthVector) {
      return HexFormat.of().formatHex(((BaseLargeVariableWidthVector) v).get(i));
    }
    throw new IllegalArgumentException("No canonical form for " + v.getField());
  }

  /** The canonical values of each column of a root: result[column][row]. */
  public static List<List<Object>> canon(VectorSchemaRoot root) {
    List<List<Object>> out = new ArrayList<>();
    for (FieldVector v : root.getFieldVectors()) {
      List<Object> col = new ArrayList<>();
      for (int i = 0; i < root.getRowCount(); i++) {
        col.add(canon(v, i));
      }
      out.add(col);
    }
    return out;
  }

  public static String describe(Object o) {
    return o instanceof Object[] ? Arrays.deepToString((Object[]) o) : String.valueOf(o);
  }
}
