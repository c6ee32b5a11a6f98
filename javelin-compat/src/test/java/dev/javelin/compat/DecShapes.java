package dev.javelin.compat;

import dev.javelin.testing.ArrowData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Data of the shapes that make lance-core 7.0.0 pick each of its 2.1 encodings: sorted and
 * narrow integers (bit-packing), runs and constants (RLE), few distinct strings (dictionaries),
 * short and long strings (FSST, mini-block and full-zip), huge binaries (per-value ZSTD), vectors
 * of several widths, nested nullable lists and structs, all-null pages, big pages. Values are in
 * the form {@link ArrowData#root} takes: little-endian bytes for fixed-width values, byte arrays
 * for strings, lists and Object[] structs.
 */
final class DecShapes {
  private DecShapes() {}

  /** One file's worth of data: a schema's fields and their rows. */
  static final class Case {
    final String name;
    final List<Field> fields;
    final List<Object[]> rows;
    /** Text every listed column's 2.1 page layouts must contain (what the case is for). */
    final String[] expect;

    Case(String name, List<Field> fields, List<Object[]> rows, String... expect) {
      this.name = name;
      this.fields = fields;
      this.rows = rows;
      this.expect = expect;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** A case with one column whose n values come from {@code value(row index)}. */
  static Case column(String name, Field field, int n, Function<Integer, Object> value, String... expect) {
    List<Object[]> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {value.apply(i)});
    }
    return new Case(name, List.of(field), rows, expect);
  }

  static byte[] le(long v, int width) {
    byte[] b = new byte[width];
    for (int i = 0; i < width; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  static byte[] f32(float f) {
    return le(Float.floatToIntBits(f), 4);
  }

  static byte[] f64(double d) {
    return le(Double.doubleToLongBits(d), 8);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Field field(String name, ArrowType type, Field... kids) {
    return ArrowData.field(name, type, kids);
  }

  static Field withMetadata(Field f, String... keyValues) {
    Map<String, String> md = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      md.put(keyValues[i], keyValues[i + 1]);
    }
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null, md), f.getChildren());
  }

  static final ArrowType I8 = new ArrowType.Int(8, true);
  static final ArrowType I16 = new ArrowType.Int(16, true);
  static final ArrowType I32 = new ArrowType.Int(32, true);
  static final ArrowType I64 = new ArrowType.Int(64, true);
  static final ArrowType F32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;

  static String word(Random r, int min, int max) {
    int len = min + r.nextInt(max - min + 1);
    StringBuilder b = new StringBuilder(len);
    String[] syllables = {"lan", "ce", "ja", "ve", "lin", "co", "lu", "mn", " ", "ø", "é"};
    while (b.length() < len) {
      b.append(syllables[r.nextInt(syllables.length)]);
    }
    return b.substring(0, len);
  }

  static List<Object> vector(Random r, int dim, double nullItemRate) {
    List<Object> v = new ArrayList<>(dim);
    for (int k = 0; k < dim; k++) {
      v.add(r.nextDouble() < nullItemRate ? null : f32((float) r.nextGaussian()));
    }
    return v;
  }

  /** The cases of the compatibility test, each small enough to write and read in well under a second. */
  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    Random r = new Random(2024);
    out.add(column("sorted int32", field("x", I32), 20_000, i -> le(1_000_000 + 3L * i, 4), "inline_bitpacking"));
    out.add(column("small range int64 with nulls", field("x", I64), 20_000,
        i -> i % 17 == 3 ? null : le(r.nextInt(200), 8), "inline_bitpacking", "out_of_line_bitpacking"));
    out.add(column("small range int8", field("x", I8), 9_000, i -> le(r.nextInt(9), 1), "inline_bitpacking"));
    out.add(column("small range int16 with nulls", field("x", I16), 9_000,
        i -> i % 5 == 0 ? null : le(r.nextInt(3000), 2), "inline_bitpacking"));
    out.add(column("wide range int64", field("x", I64), 20_000, i -> le(r.nextLong(), 8), "flat"));
    out.add(column("constant int32", field("x", I32), 20_000, i -> le(-7, 4), "rle"));
    out.add(column("runs int16", field("x", I16), 20_000, i -> le(i / 300, 2), "rle"));
    out.add(column("runs int64 with nulls", field("x", I64), 20_000,
        i -> i % 1000 < 100 ? null : le(i / 1000 * 1_000_000_007L, 8), "rle"));
    out.add(column("random float32 in [0, 1)", field("x", F32), 20_000, i -> f32(r.nextFloat()), "inline_bitpacking"));
    out.add(column("random float32 of both signs", field("x", F32), 20_000, i -> f32((float) r.nextGaussian()), "flat"));
    out.add(column("random float64 with nulls", field("x", F64), 20_000,
        i -> i % 9 == 0 ? null : f64(r.nextGaussian() * 1e6), "flat"));
    out.add(column("bool with nulls", field("x", ArrowType.Bool.INSTANCE), 20_000,
        i -> i % 7 == 1 ? null : r.nextInt(3) == 0, "flat"));
    String[] levels = {"DEBUG", "INFO", "WARN", "ERROR", "FATAL", ""};
    out.add(column("low-cardinality strings with nulls", field("x", UTF8), 20_000,
        i -> i % 13 == 0 ? null : utf8(levels[r.nextInt(levels.length)]), "dictionary"));
    out.add(column("low-cardinality large strings", field("x", ArrowType.LargeUtf8.INSTANCE), 5_000,
        i -> utf8(levels[r.nextInt(3)] + "-" + r.nextInt(4)), "dictionary"));
    out.add(column("low-cardinality decimals", field("x", new ArrowType.Decimal(38, 2, 128)), 5_000,
        i -> le(r.nextInt(5) * 100L, 16), "dictionary", "bits_per_value: 128"));
    out.add(column("short strings with nulls", field("x", UTF8), 20_000,
        i -> i % 11 == 0 ? null : utf8(word(r, 0, 40)), "fsst"));
    out.add(column("short binaries", field("x", ArrowType.Binary.INSTANCE), 20_000, i -> {
      byte[] b = new byte[r.nextInt(24)];
      r.nextBytes(b);
      return b;
    }, "variable"));
    out.add(column("long strings with nulls", field("x", UTF8), 1_500,
        i -> i % 10 == 0 ? null : utf8(word(r, 256, 3000)), "full_zip", "fsst"));
    out.add(column("binaries over 32 KiB", field("x", ArrowType.LargeBinary.INSTANCE), 48, i -> {
      if (i % 8 == 5) {
        return null;
      }
      byte[] b = new byte[33_000 + r.nextInt(30_000)];
      for (int k = 0; k < b.length; k++) {
        b[k] = (byte) (k % 251 == 0 ? r.nextInt() : k / 1000);
      }
      return b;
    }, "full_zip", "general", "ZSTD"));
    out.add(column("vectors of 16 floats", ArrowData.fsl("x", 16, field("item", F32)), 8_000,
        i -> vector(r, 16, 0), "fixed_size_list"));
    out.add(column("nullable vectors of 128 floats", ArrowData.fsl("x", 128, field("item", F32)), 2_000,
        i -> i % 6 == 2 ? null : vector(r, 128, 0), "full_zip"));
    out.add(column("vectors of 1536 floats", ArrowData.fsl("x", 1536, field("item", F32)), 200,
        i -> vector(r, 1536, 0), "full_zip"));
    out.add(column("vectors of 16 ints with null items",
        ArrowData.notNull("x", new ArrowType.FixedSizeList(16), field("item", I32)), 4_000, i -> {
          List<Object> v = new ArrayList<>();
          for (int k = 0; k < 16; k++) {
            v.add(r.nextInt(6) == 0 ? null : le(r.nextInt(), 4));
          }
          return v;
        }, "has_validity"));
    out.add(column("nullable lists of int32 with empties", ArrowData.list("x", field("item", I32)), 10_000,
        i -> {
          if (i % 10 == 3) {
            return null;
          }
          List<Object> l = new ArrayList<>();
          int n = i % 10 == 4 ? 0 : r.nextInt(8);
          for (int k = 0; k < n; k++) {
            l.add(r.nextInt(12) == 0 ? null : le(r.nextInt(5000), 4));
          }
          return l;
        }, "rep_compression", "repetition_index_depth"));
    out.add(column("a list of 40,000 items", ArrowData.list("x", field("item", I32)), 30, i -> {
      List<Object> l = new ArrayList<>();
      int n = i == 17 ? 40_000 : r.nextInt(5);
      for (int k = 0; k < n; k++) {
        l.add(le(k, 4));
      }
      return l;
    }, "repetition_index_depth"));
    out.add(column("list<list<string>> with nulls and empties",
        ArrowData.list("x", ArrowData.list("item", field("item", UTF8))), 4_000, i -> nested(r, 0), "rep_compression"));
    out.add(column("nullable struct<int64, string, list<double>>", ArrowData.struct("x", field("a", I64),
        field("b", UTF8), ArrowData.list("c", field("item", F64))), 6_000, i -> {
          if (i % 9 == 0) {
            return null;
          }
          List<Object> c = null;
          if (i % 5 != 0) {
            c = new ArrayList<>();
            for (int k = r.nextInt(4); k > 0; k--) {
              c.add(f64(r.nextDouble()));
            }
          }
          return new Object[] {i % 4 == 1 ? null : le(r.nextInt(1000), 8),
              i % 6 == 1 ? null : utf8(word(r, 1, 30)), c};
        }, "layers: REPDEF_NULLABLE_ITEM"));
    out.add(column("list<struct<int16, string>>", ArrowData.list("x", ArrowData.struct("item", field("a", I16),
        field("b", UTF8))), 5_000, i -> {
          List<Object> l = new ArrayList<>();
          for (int k = r.nextInt(4); k > 0; k--) {
            l.add(r.nextInt(10) == 0 ? null : new Object[] {le(r.nextInt(100), 2), utf8(levels[r.nextInt(4)])});
          }
          return i % 8 == 0 ? null : l;
        }, "rep_compression"));
    out.add(column("all-null int32", field("x", I32), 5_000, i -> null, "all_null_layout"));
    out.add(column("lists all null or empty", ArrowData.list("x", field("item", I32)), 5_000,
        i -> i % 3 == 0 ? null : List.of(), "all_null_layout"));
    out.add(new Case("very large page", List.of(field("x", I64), field("y", I32)), bigRows(r, 600_000), "flat"));
    out.add(new Case("every primitive type", primitiveFields(), primitiveRows(r, 3_000)));
    out.add(column("packed struct", new Field("x", new FieldType(false, ArrowType.Struct.INSTANCE, null,
        Map.of("packed", "true")), List.of(ArrowData.notNull("a", I32), ArrowData.notNull("b", F64),
            ArrowData.notNull("c", I16))), 6_000,
        i -> new Object[] {le(r.nextInt(), 4), f64(r.nextDouble()), le(i, 2)}, "packed_struct"));
    out.add(column("blobs", withMetadata(field("x", ArrowType.LargeBinary.INSTANCE), "lance-encoding:blob", "true"), 40,
        i -> {
          if (i % 7 == 3) {
            return null;
          }
          byte[] b = new byte[i % 9 == 0 ? 0 : r.nextInt(200_000)];
          r.nextBytes(b);
          return b;
        }, "blob_layout"));
    out.add(column("zstd-compressed int32 (field metadata)",
        withMetadata(field("x", I32), "lance-encoding:compression", "zstd"), 20_000,
        i -> le(r.nextInt(1 << 20), 4), "general", "byte_stream_split"));
    out.add(column("lz4-compressed strings (field metadata)",
        withMetadata(field("x", UTF8), "lance-encoding:compression", "lz4"), 20_000,
        i -> i % 10 == 0 ? null : utf8(word(r, 0, 30)), "general", "LZ4"));
    out.add(column("zstd-compressed float64 split by bytes",
        withMetadata(field("x", F64), "lance-encoding:compression", "zstd", "lance-encoding:bss", "on"), 20_000,
        i -> f64(r.nextGaussian()), "byte_stream_split"));
    out.add(column("zstd-compressed long strings per value",
        withMetadata(field("x", UTF8), "lance-encoding:compression", "zstd"), 600,
        i -> utf8(word(r, 300, 2000)), "full_zip", "general"));
    out.add(column("a few hundred nullable ints", field("x", I32), 700,
        i -> i % 3 == 0 ? null : le(r.nextInt(1 << 12), 4), "def_compression { inline_bitpacking"));
    out.add(column("constant strings with nulls", field("x", UTF8), 5_000,
        i -> i % 3 == 0 ? null : utf8("hello"), "dictionary"));
    out.add(column("constant large strings", field("x", ArrowType.LargeUtf8.INSTANCE), 5_000,
        i -> utf8("hello world"), "dictionary"));
    out.add(column("empty strings", field("x", UTF8), 5_000, i -> utf8(""), "variable"));
    out.add(column("constant 40-byte binaries", field("x", new ArrowType.FixedSizeBinary(40)), 5_000,
        i -> le(0x0102030405L, 40), "flat"));
    out.add(column("constant booleans", field("x", ArrowType.Bool.INSTANCE), 5_000, i -> true, "flat"));
    out.add(column("struct of a constant int", ArrowData.struct("x", field("a", I32)), 5_000,
        i -> new Object[] {le(5, 4)}, "rle"));
    out.add(column("lists of a constant int", ArrowData.list("x", field("item", I64)), 5_000, i -> {
      List<Object> l = new ArrayList<>();
      for (int k = i % 4; k > 0; k--) {
        l.add(r.nextInt(5) == 0 ? null : le(9, 8));
      }
      return i % 6 == 0 ? null : l;
    }, "rep_compression"));
    out.add(column("lists of low-cardinality strings", ArrowData.list("x", field("item", UTF8)), 6_000, i -> {
      List<Object> l = new ArrayList<>();
      for (int k = r.nextInt(5); k > 0; k--) {
        l.add(r.nextInt(9) == 0 ? null : utf8(levels[r.nextInt(4)]));
      }
      return i % 11 == 0 ? null : l;
    }, "dictionary", "rep_compression"));
    out.add(column("nullable struct with a blob", ArrowData.struct("x",
        withMetadata(field("b", ArrowType.LargeBinary.INSTANCE), "lance-encoding:blob", "true"), field("i", I32)), 30,
        i -> {
          byte[] b = new byte[20_000 + r.nextInt(20_000)];
          r.nextBytes(b);
          return i % 4 == 0 ? null : new Object[] {i % 5 == 1 ? null : b, le(i, 4)};
        }, "blob_layout"));
    out.add(column("timestamps in runs", field("x", new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MILLISECOND,
        null)), 10_000, i -> le(1_700_000_000_000L + i / 100, 8), "rle"));
    out.add(column("lists of vectors of 4 floats", ArrowData.list("x", ArrowData.fsl("item", 4, field("item", F32))), 5_000,
        i -> {
          List<Object> l = new ArrayList<>();
          for (int k = r.nextInt(3); k > 0; k--) {
            l.add(vector(r, 4, 0));
          }
          return l;
        }, "fixed_size_list", "rep_compression"));
    return out;
  }

  private static Object nested(Random r, int depth) {
    if (r.nextInt(10) == 0) {
      return null;
    }
    List<Object> l = new ArrayList<>();
    for (int k = r.nextInt(4); k > 0; k--) {
      l.add(depth == 0 ? nested(r, 1) : r.nextInt(8) == 0 ? null : utf8(word(r, 0, 12)));
    }
    return l;
  }

  private static List<Object[]> bigRows(Random r, int n) {
    List<Object[]> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {le(r.nextLong(), 8), le(i / 3, 4)});
    }
    return rows;
  }

  private static List<Field> primitiveFields() {
    List<Field> f = new ArrayList<>(ArrowData.primitives());
    // Narrow variants of every integer width, so each bit-packs.
    for (int bits : new int[] {8, 16, 32, 64}) {
      f.add(field("narrow_int" + bits, new ArrowType.Int(bits, true)));
      f.add(field("narrow_uint" + bits, new ArrowType.Int(bits, false)));
    }
    return f;
  }

  private static List<Object[]> primitiveRows(Random r, int n) {
    List<Field> fields = primitiveFields();
    ArrowData.Gen g = new ArrowData.Gen(r.nextLong());
    g.nullRate = 0.1;
    g.maxString = 20;
    List<Object[]> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Object[] row = new Object[fields.size()];
      for (int c = 0; c < row.length; c++) {
        Field f = fields.get(c);
        if (f.getName().startsWith("narrow_")) {
          int w = ((ArrowType.Int) f.getType()).getBitWidth() / 8;
          row[c] = r.nextInt(10) == 0 ? null : le(r.nextInt(100), w);
        } else {
          row[c] = ArrowData.random(f, g);
        }
      }
      rows.add(row);
    }
    return rows;
  }
}
