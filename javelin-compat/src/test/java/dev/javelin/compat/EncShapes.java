package dev.javelin.compat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Columns of typical shapes for the compressed-encoding tests: each makes one single-column
 * {@link VectorSchemaRoot} of {@code n} rows from a fixed seed, so that Javelin and lance-core can be
 * given exactly the same data.
 */
final class EncShapes {
  private EncShapes() {}

  /** Shape name to a maker of (allocator, rows). */
  static Map<String, BiFunction<BufferAllocator, Integer, VectorSchemaRoot>> all() {
    Map<String, BiFunction<BufferAllocator, Integer, VectorSchemaRoot>> m = new LinkedHashMap<>();
    m.put("sorted_i64", (a, n) -> longs(a, n, false, (r, i) -> (long) i));
    m.put("small_range_i32", (a, n) -> ints(a, n, false, (r, i) -> r.nextInt(1000)));
    m.put("small_range_i64_nulls", (a, n) -> longs(a, n, true, (r, i) -> (long) r.nextInt(50_000)));
    m.put("wide_i64", (a, n) -> longs(a, n, false, (r, i) -> r.nextLong()));
    m.put("negative_i32", (a, n) -> ints(a, n, false, (r, i) -> r.nextInt(200) - 100));
    m.put("constant_i32", (a, n) -> ints(a, n, false, (r, i) -> 42));
    m.put("runs_i32", (a, n) -> ints(a, n, false, (r, i) -> i / 37));
    m.put("runs_i64_nulls", (a, n) -> longs(a, n, true, (r, i) -> (long) (i / 100) * 1_000_000_007L));
    m.put("i8", (a, n) -> {
      TinyIntVector v = new TinyIntVector("i8", a);
      Random r = new Random(7);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, (byte) r.nextInt(16));
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("i16_nulls", (a, n) -> {
      SmallIntVector v = new SmallIntVector("i16", a);
      Random r = new Random(8);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (i % 9 == 4) {
          v.setNull(i);
        } else {
          v.set(i, (short) (r.nextInt(3000) - 1500));
        }
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("f64", (a, n) -> {
      Float8Vector v = new Float8Vector("f64", a);
      Random r = new Random(9);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, r.nextDouble());
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("f32_rounded", (a, n) -> {
      Float4Vector v = new Float4Vector("f32", a);
      Random r = new Random(10);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, r.nextInt(100) / 4f);
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("bool", (a, n) -> {
      BitVector v = new BitVector("b", a);
      Random r = new Random(11);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (i % 13 == 0) {
          v.setNull(i);
        } else {
          v.set(i, r.nextInt(3) == 0 ? 1 : 0);
        }
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("low_card_str", (a, n) -> strings(a, n, 0, (r, i) -> "category-" + r.nextInt(12)));
    m.put("low_card_str_nulls", (a, n) -> strings(a, n, 7, (r, i) -> "state_" + r.nextInt(50)));
    m.put("short_str", (a, n) -> strings(a, n, 0, (r, i) -> "n" + r.nextInt(100_000)));
    m.put("names", (a, n) -> strings(a, n, 0, (r, i) -> "name_" + i));
    m.put("tiny_str", (a, n) -> strings(a, n, 0, (r, i) -> Integer.toString(r.nextInt(2000), 36)));
    m.put("long_str_nulls", (a, n) -> strings(a, n, 5, EncShapes::sentence));
    m.put("binary_40k", (a, n) -> {
      VarBinaryVector v = new VarBinaryVector("blob", a);
      Random r = new Random(12);
      v.allocateNew();
      int rows = Math.min(n, 64);
      for (int i = 0; i < rows; i++) {
        if (i % 10 == 3) {
          v.setNull(i);
          continue;
        }
        byte[] b = new byte[40 * 1024 + r.nextInt(100)];
        for (int k = 0; k < b.length; k++) {
          b[k] = (byte) ("lorem ipsum dolor ".charAt((k + i) % 18) + (k % 97 == 0 ? r.nextInt(3) : 0));
        }
        v.setSafe(i, b);
      }
      v.setValueCount(rows);
      return VectorSchemaRoot.of(v);
    });
    m.put("vec16", (a, n) -> vectors(a, n, 16, false));
    m.put("vec128", (a, n) -> vectors(a, n, 128, false));
    m.put("vec128_nulls", (a, n) -> vectors(a, n, 128, true));
    m.put("vec1536", (a, n) -> vectors(a, Math.min(n, 500), 1536, false));
    m.put("list_i32_nulls", (a, n) -> listOfInts(a, n));
    m.put("list_str", (a, n) -> listOfStrings(a, n));
    m.put("struct_nulls", (a, n) -> struct(a, n));
    m.put("rare_nulls_i64", (a, n) -> {
      BigIntVector v = new BigIntVector("i64", a);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (i % 5000 == 4999) {
          v.setNull(i);
        } else {
          v.set(i, 1_000_000L + (i * 7919L) % 65_536);
        }
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("large_str", (a, n) -> largeStrings(a, n, EncShapes::sentence));
    m.put("large_low_card_str", (a, n) -> largeStrings(a, n, (r, i) -> "colour-" + r.nextInt(9)));
    m.put("wide_low_card_str", (a, n) -> strings(a, n, 9, (r, i) -> "w".repeat(300) + r.nextInt(5)));
    m.put("empty_strs", (a, n) -> strings(a, n, 0, (r, i) -> ""));
    m.put("list_list_i64", (a, n) -> listOfLists(a, n));
    m.put("mostly_empty_lists", (a, n) -> {
      Field item = new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null);
      Field f = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
      ListVector v = (ListVector) f.createVector(a);
      IntVector items = (IntVector) v.addOrGetVector(FieldType.nullable(new ArrowType.Int(32, true))).getVector();
      v.allocateNew();
      int k = 0;
      for (int i = 0; i < n; i++) {
        v.startNewValue(i);
        int len = i % 50 == 0 ? 1 : 0;
        for (int j = 0; j < len; j++) {
          items.setSafe(k++, i);
        }
        v.endValue(i, len);
      }
      items.setValueCount(k);
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("all_empty_lists", (a, n) -> {
      Field item = new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null);
      Field f = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
      ListVector v = (ListVector) f.createVector(a);
      v.addOrGetVector(FieldType.nullable(new ArrowType.Int(32, true)));
      v.allocateNew();
      for (int i = 0; i < n; i++) {
        if (i % 3 == 0) {
          v.setNull(i);
        } else {
          v.startNewValue(i);
          v.endValue(i, 0);
        }
      }
      v.setValueCount(n);
      return VectorSchemaRoot.of(v);
    });
    m.put("all_null_i32", (a, n) -> ints(a, n, true, null));
    m.put("all_null_str", (a, n) -> strings(a, n, 1, null));
    return m;
  }

  interface Gen<T> {
    T next(Random r, int i);
  }

  static VectorSchemaRoot ints(BufferAllocator a, int n, boolean nulls, Gen<Integer> g) {
    IntVector v = new IntVector("i32", a);
    Random r = new Random(1);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      if (g == null || (nulls && i % 7 == 3)) {
        v.setNull(i);
      } else {
        v.set(i, g.next(r, i));
      }
    }
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static VectorSchemaRoot longs(BufferAllocator a, int n, boolean nulls, Gen<Long> g) {
    BigIntVector v = new BigIntVector("i64", a);
    Random r = new Random(2);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      if (nulls && i % 7 == 3) {
        v.setNull(i);
      } else {
        v.set(i, g.next(r, i));
      }
    }
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  /** Strings; every {@code nullEvery}-th row null (0: none, 1: all). */
  static VectorSchemaRoot strings(BufferAllocator a, int n, int nullEvery, Gen<String> g) {
    VarCharVector v = new VarCharVector("s", a);
    Random r = new Random(3);
    v.allocateNew();
    for (int i = 0; i < n; i++) {
      if (g == null || (nullEvery > 0 && i % nullEvery == 0)) {
        v.setNull(i);
      } else {
        v.setSafe(i, g.next(r, i).getBytes(StandardCharsets.UTF_8));
      }
    }
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  private static final String[] WORDS = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
      "lance", "columnar", "format", "vector", "search", "random", "access", "encoding", "page", "chunk"};

  static String sentence(Random r, int i) {
    StringBuilder b = new StringBuilder();
    int words = 3 + r.nextInt(25);
    for (int k = 0; k < words; k++) {
      b.append(WORDS[r.nextInt(WORDS.length)]).append(k % 5 == 4 ? ", " : " ");
    }
    b.append(i);
    return b.toString();
  }

  static VectorSchemaRoot largeStrings(BufferAllocator a, int n, Gen<String> g) {
    org.apache.arrow.vector.LargeVarCharVector v = new org.apache.arrow.vector.LargeVarCharVector("ls", a);
    Random r = new Random(14);
    v.allocateNew();
    for (int i = 0; i < n; i++) {
      if (i % 8 == 5) {
        v.setNull(i);
      } else {
        v.setSafe(i, g.next(r, i).getBytes(StandardCharsets.UTF_8));
      }
    }
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static VectorSchemaRoot listOfLists(BufferAllocator a, int n) {
    Field leaf = new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), null);
    Field inner = new Field("item", FieldType.nullable(ArrowType.List.INSTANCE), List.of(leaf));
    Field f = new Field("ll", FieldType.nullable(ArrowType.List.INSTANCE), List.of(inner));
    ListVector v = (ListVector) f.createVector(a);
    ListVector in = (ListVector) v.getDataVector();
    BigIntVector items = (BigIntVector) in.getDataVector();
    Random r = new Random(15);
    v.allocateNew();
    int k = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (i % 13 == 4) {
        v.setNull(i);
        continue;
      }
      int len = r.nextInt(4);
      v.startNewValue(i);
      for (int j = 0; j < len; j++) {
        if (r.nextInt(9) == 0) {
          in.setNull(m++);
          continue;
        }
        int len2 = r.nextInt(5);
        in.startNewValue(m);
        for (int x = 0; x < len2; x++) {
          items.setSafe(k++, i * 10L + x);
        }
        in.endValue(m++, len2);
      }
      v.endValue(i, len);
    }
    items.setValueCount(k);
    in.setValueCount(m);
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static VectorSchemaRoot vectors(BufferAllocator a, int n, int dim, boolean nulls) {
    Field item = new Field("item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    Field f = new Field("vec", FieldType.nullable(new ArrowType.FixedSizeList(dim)), List.of(item));
    FixedSizeListVector v = (FixedSizeListVector) f.createVector(a);
    Float4Vector items = (Float4Vector) v.getDataVector();
    Random r = new Random(4);
    v.allocateNew();
    items.allocateNew(n * dim);
    for (int i = 0; i < n; i++) {
      if (nulls && i % 17 == 0) {
        v.setNull(i);
      } else {
        v.setNotNull(i);
      }
      for (int k = 0; k < dim; k++) {
        items.set(i * dim + k, (float) r.nextGaussian());
      }
    }
    items.setValueCount(n * dim);
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static VectorSchemaRoot listOfInts(BufferAllocator a, int n) {
    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field f = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    ListVector v = (ListVector) f.createVector(a);
    IntVector items = (IntVector) v.addOrGetVector(FieldType.nullable(new ArrowType.Int(32, true))).getVector();
    Random r = new Random(5);
    v.allocateNew();
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (i % 19 == 7) {
        v.setNull(i);
        continue;
      }
      int len = i % 23 == 2 ? 0 : r.nextInt(6);
      v.startNewValue(i);
      for (int j = 0; j < len; j++) {
        if (r.nextInt(10) == 0) {
          items.setNull(k);
        } else {
          items.setSafe(k, r.nextInt(500));
        }
        k++;
      }
      v.endValue(i, len);
    }
    items.setValueCount(k);
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static VectorSchemaRoot listOfStrings(BufferAllocator a, int n) {
    Field item = new Field("item", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    Field f = new Field("ls", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    ListVector v = (ListVector) f.createVector(a);
    VarCharVector items = (VarCharVector) v.addOrGetVector(FieldType.nullable(ArrowType.Utf8.INSTANCE)).getVector();
    Random r = new Random(6);
    v.allocateNew();
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (i % 31 == 7) {
        v.setNull(i);
        continue;
      }
      int len = i % 11 == 2 ? 0 : r.nextInt(4);
      v.startNewValue(i);
      for (int j = 0; j < len; j++) {
        if (r.nextInt(15) == 0) {
          items.setNull(k);
        } else {
          items.setSafe(k, sentence(r, i).getBytes(StandardCharsets.UTF_8));
        }
        k++;
      }
      v.endValue(i, len);
    }
    items.setValueCount(k);
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static VectorSchemaRoot struct(BufferAllocator a, int n) {
    Field fa = new Field("a", FieldType.nullable(new ArrowType.Int(64, true)), null);
    Field fb = new Field("b", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    Field f = new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(fa, fb));
    StructVector v = (StructVector) f.createVector(a);
    BigIntVector va = (BigIntVector) v.getChild("a");
    VarCharVector vb = (VarCharVector) v.getChild("b");
    Random r = new Random(13);
    v.allocateNew();
    for (int i = 0; i < n; i++) {
      if (i % 10 == 1) {
        v.setNull(i);
        va.setNull(i);
        vb.setNull(i);
        continue;
      }
      v.setIndexDefined(i);
      if (i % 6 == 0) {
        va.setNull(i);
      } else {
        va.setSafe(i, 1000 + r.nextInt(3000));
      }
      vb.setSafe(i, ("k" + r.nextInt(20)).getBytes(StandardCharsets.UTF_8));
    }
    va.setValueCount(n);
    vb.setValueCount(n);
    v.setValueCount(n);
    return VectorSchemaRoot.of(v);
  }

  static List<String> names() {
    return new ArrayList<>(all().keySet());
  }

  /** Keeps the vector alive for the caller: the root owns it. */
  static FieldVector only(VectorSchemaRoot root) {
    return root.getFieldVectors().get(0);
  }
}
