package dev.javelin.compat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
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
 * Random Arrow schemas and batches for compatibility tests, driven by one seed so that a failure
 * is reproduced from the seed alone.
 *
 * <p>Covers bool, signed and unsigned ints of every width, half/single/double floats, utf8,
 * large_utf8, binary, large_binary, date32/64, time32/64, timestamps (every unit, with and without a
 * time zone), decimal128, fixed_size_binary, fixed_size_list&lt;float32, 2|16|128&gt;, list,
 * large_list and struct, nested (list&lt;struct&gt;, struct&lt;list&gt;, list&lt;list&lt;int32&gt;&gt;, ...), with
 * nulls at every level, empty lists, and row counts from 0 to a few thousand. Value distributions
 * vary per column (narrow or full bit widths, runs, low-cardinality strings, long strings) so that
 * writers pick different encodings.
 */
final class RandomData {
  /** Most rows a generated batch has. */
  static final int MAX_ROWS = 3000;
  // Upper bound on values in one vector, so nested lists cannot blow up.
  private static final int MAX_VALUES = 60_000;

  /** What a file version (or the writer under test) can store; the generator stays inside it. */
  static final class Profile {
    final String name;
    final boolean structNulls;
    final boolean fixedSizeListOfOnlyNullItems;
    final boolean nullStructsAboveLists;

    Profile(String name, boolean structNulls, boolean fixedSizeListOfOnlyNullItems, boolean nullStructsAboveLists) {
      this.name = name;
      this.structNulls = structNulls;
      this.fixedSizeListOfOnlyNullItems = fixedSizeListOfOnlyNullItems;
      this.nullStructsAboveLists = nullStructsAboveLists;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * Lance 2.0 does not store struct validity (a null struct reads back as a struct of its
   * children's values), so structs are never null.
   */
  static final Profile V2_0 = new Profile("2.0", false, true, true);

  /**
   * Lance 2.1 stores validity at every level. lance-core 7.0.0 cannot read back a 2.1
   * fixed-size-list column whose valid rows hold only null items ("per-row byte width must be
   * greater than 0"), so the first valid row always has a non-null item. It also panics ("the
   * offset + length of the sliced Buffer cannot exceed the existing length", "called
   * Option::unwrap() on a None value" in FixedFullZipDecoder) or reads wrong values (binary items
   * read back empty) for lists below structs that have nulls, e.g. struct&lt;int, struct&lt;large_list
   * not null&lt;double&gt;&gt;&gt; with null structs at both levels, or struct&lt;list&lt;binary&gt;&gt; with null
   * structs and null lists; so a struct with a list anywhere below it is never null.
   */
  static final Profile V2_1 = new Profile("2.1", true, false, false);

  /** A profile by its name ("2.0", "2.1"). */
  static Profile profile(String name) {
    for (Profile p : new Profile[] {V2_0, V2_1}) {
      if (p.name.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("No profile named " + name);
  }

  private final Random random;
  private final Profile profile;

  RandomData(long seed, Profile profile) {
    this.random = new Random(seed);
    this.profile = profile;
  }

  Random random() {
    return random;
  }

  Profile profile() {
    return profile;
  }

  // ---------------------------------------------------------------- schemas

  /** A schema of 1 to 5 top-level fields named c0, c1, .... */
  Schema schema() {
    int n = 1 + random.nextInt(5);
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fields.add(field("c" + i, 0));
    }
    return new Schema(fields);
  }

  /** A schema of exactly the given top-level field types, for targeted tests. */
  static Schema schemaOf(Field... fields) {
    return new Schema(List.of(fields));
  }

  private Field field(String name, int depth) {
    int roll = random.nextInt(100);
    if (depth < 3 && roll < 8) {
      return list(name, false, field("item", depth + 1));
    }
    if (depth < 3 && roll < 12) {
      return list(name, true, field("item", depth + 1));
    }
    if (depth < 3 && roll < 18) {
      int k = 1 + random.nextInt(3);
      List<Field> kids = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        kids.add(field("f" + i, depth + 1));
      }
      return struct(name, kids);
    }
    if (depth < 2 && roll < 20) {
      // list<struct<...>>
      return list(name, random.nextBoolean(), struct("item", List.of(field("a", depth + 2), leaf("b"))));
    }
    if (depth < 2 && roll < 22) {
      // struct<list<...>>
      return struct(name, List.of(list("l", false, leaf("item")), leaf("x")));
    }
    if (depth < 2 && roll < 24) {
      // list<list<int32>>
      return list(name, false, list("item", false, primitive("item", new ArrowType.Int(32, true))));
    }
    if (roll < 32) {
      int[] dims = {2, 16, 128};
      return fixedSizeList(name, dims[random.nextInt(dims.length)]);
    }
    return leaf(name);
  }

  private Field leaf(String name) {
    return primitive(name, leafType());
  }

  private ArrowType leafType() {
    switch (random.nextInt(22)) {
      case 0:
        return ArrowType.Bool.INSTANCE;
      case 1:
      case 2:
        return new ArrowType.Int(8 << random.nextInt(4), true);
      case 3:
        return new ArrowType.Int(8 << random.nextInt(4), false);
      case 4:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case 5:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case 6:
      case 7:
        return ArrowType.Utf8.INSTANCE;
      case 8:
        return ArrowType.LargeUtf8.INSTANCE;
      case 9:
        return ArrowType.Binary.INSTANCE;
      case 10:
        return ArrowType.LargeBinary.INSTANCE;
      case 11:
        return new ArrowType.Date(DateUnit.DAY);
      case 12:
        return new ArrowType.Date(DateUnit.MILLISECOND);
      case 13:
        return random.nextBoolean()
            ? new ArrowType.Time(TimeUnit.SECOND, 32)
            : new ArrowType.Time(TimeUnit.MILLISECOND, 32);
      case 14:
        return random.nextBoolean()
            ? new ArrowType.Time(TimeUnit.MICROSECOND, 64)
            : new ArrowType.Time(TimeUnit.NANOSECOND, 64);
      case 15:
      case 16:
        {
          TimeUnit u = TimeUnit.values()[random.nextInt(4)];
          // No zone with a ':' ("+05:30"): lance-core splits the logical type on ':' and panics.
          String[] zones = {null, "UTC", "America/New_York", "Asia/Kolkata"};
          return new ArrowType.Timestamp(u, zones[random.nextInt(zones.length)]);
        }
      case 17:
        {
          int precision = 1 + random.nextInt(38);
          int scale = random.nextInt(precision + 1);
          return new ArrowType.Decimal(precision, scale, 128);
        }
      case 18:
        {
          int[] widths = {1, 4, 16, 33};
          return new ArrowType.FixedSizeBinary(widths[random.nextInt(widths.length)]);
        }
      case 19:
        return new ArrowType.Int(64, true);
      case 20:
        return new ArrowType.Int(32, true);
      default:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
    }
  }

  private Field primitive(String name, ArrowType type) {
    return new Field(name, new FieldType(nullable(), type, null), null);
  }

  private boolean nullable() {
    return random.nextInt(5) != 0;
  }

  private Field list(String name, boolean large, Field item) {
    ArrowType t = large ? ArrowType.LargeList.INSTANCE : ArrowType.List.INSTANCE;
    return new Field(name, new FieldType(nullable(), t, null), List.of(item));
  }

  private Field struct(String name, List<Field> children) {
    boolean nullable = profile.structNulls && nullable() && (profile.nullStructsAboveLists || !hasList(children));
    return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children);
  }

  private static boolean hasList(List<Field> fields) {
    for (Field f : fields) {
      ArrowType t = f.getType();
      if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList || hasList(f.getChildren())) {
        return true;
      }
    }
    return false;
  }

  private Field fixedSizeList(String name, int dim) {
    Field item = new Field("item",
        new FieldType(random.nextBoolean(),
            new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), null), null);
    return new Field(name, new FieldType(nullable(), new ArrowType.FixedSizeList(dim), null), List.of(item));
  }

  /** A copy of the schema with the same field metadata entries put on every field. */
  static Schema withMetadata(Schema schema, Map<String, String> metadata) {
    List<Field> out = new ArrayList<>();
    for (Field f : schema.getFields()) {
      out.add(withMetadata(f, metadata));
    }
    return new Schema(out, schema.getCustomMetadata());
  }

  private static Field withMetadata(Field f, Map<String, String> metadata) {
    List<Field> kids = new ArrayList<>();
    for (Field c : f.getChildren()) {
      kids.add(withMetadata(c, metadata));
    }
    FieldType t = new FieldType(f.isNullable(), f.getType(), f.getDictionary(), metadata);
    return new Field(f.getName(), t, kids);
  }

  // ---------------------------------------------------------------- rows

  /** A row count: often 0, 1 or small, sometimes up to {@link #MAX_ROWS}. */
  int rowCount() {
    int roll = random.nextInt(20);
    if (roll == 0) {
      return 0;
    }
    if (roll == 1) {
      return 1;
    }
    if (roll < 8) {
      return 2 + random.nextInt(60);
    }
    if (roll < 15) {
      return 100 + random.nextInt(1000);
    }
    return 1000 + random.nextInt(MAX_ROWS - 999);
  }

  /** A batch of the schema with {@code rows} rows; the caller closes it. */
  VectorSchemaRoot root(Schema schema, int rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      for (FieldVector v : root.getFieldVectors()) {
        fill(v, rows);
      }
      root.setRowCount(rows);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  // Chooses, per vector, how many of its values are null. Values under a null struct are null
  // (when the field allows it); value mustBeValid (if >= 0) is not.
  private boolean[] nulls(Field field, int n, int mustBeValid, boolean[] underNull) {
    boolean[] nulls = chooseNulls(field, n);
    if (underNull != null && field.isNullable()) {
      for (int i = 0; i < n; i++) {
        nulls[i] |= underNull[i];
      }
    }
    if (mustBeValid >= 0 && mustBeValid < n) {
      nulls[mustBeValid] = false;
    }
    return nulls;
  }

  private boolean[] chooseNulls(Field field, int n) {
    boolean[] nulls = new boolean[n];
    if (!field.isNullable() || n == 0) {
      return nulls;
    }
    int mode = random.nextInt(20);
    if (mode < 8) {
      return nulls;
    }
    if (mode < 11 && n > 0) {
      java.util.Arrays.fill(nulls, true);
      return nulls;
    }
    double p = mode < 16 ? 0.05 + random.nextDouble() * 0.4 : 0.9;
    for (int i = 0; i < n; i++) {
      nulls[i] = random.nextDouble() < p;
    }
    return nulls;
  }

  /** Fills a freshly created vector with {@code n} random values (and their children). */
  void fill(FieldVector v, int n) {
    fill(v, n, -1, null);
  }

  /**
   * Fills {@code v} with {@code n} values. {@code underNull[i]} marks a value under a null struct:
   * it is made null (or, for a non-nullable list, empty). lance-core 7.0.0 panics (aborting the
   * JVM) reading a 2.1 file with non-empty lists under null structs, and Arrow producers usually
   * write nulls there anyway.
   */
  private void fill(FieldVector v, int n, int mustBeValid, boolean[] underNull) {
    boolean[] nulls = nulls(v.getField(), n, mustBeValid, underNull);
    if (v instanceof ListVector) {
      fillList((ListVector) v, n, nulls, underNull);
    } else if (v instanceof LargeListVector) {
      fillLargeList((LargeListVector) v, n, nulls, underNull);
    } else if (v instanceof FixedSizeListVector) {
      FixedSizeListVector f = (FixedSizeListVector) v;
      f.setInitialCapacity(n);
      f.allocateNew();
      long items = (long) n * f.getListSize();
      if (items > 1_000_000) {
        throw new IllegalStateException("fixed-size list too large: " + items);
      }
      int firstValid = -1;
      for (int i = 0; i < n && firstValid < 0; i++) {
        firstValid = nulls[i] ? -1 : i;
      }
      boolean itemNeeded = !profile.fixedSizeListOfOnlyNullItems && firstValid >= 0;
      fill(f.getDataVector(), (int) items, itemNeeded ? firstValid * f.getListSize() : -1, null);
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          f.setNull(i);
        } else {
          f.setNotNull(i);
        }
      }
      f.setValueCount(n);
    } else if (v instanceof StructVector) {
      StructVector s = (StructVector) v;
      s.setInitialCapacity(n);
      s.allocateNew();
      boolean[] childUnderNull = nulls.clone();
      if (underNull != null) {
        for (int i = 0; i < n; i++) {
          childUnderNull[i] |= underNull[i];
        }
      }
      for (FieldVector c : s.getChildrenFromFields()) {
        fill(c, n, -1, childUnderNull);
      }
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          s.setNull(i);
        } else {
          s.setIndexDefined(i);
        }
      }
      s.setValueCount(n);
    } else if (v instanceof BitVector) {
      BitVector b = (BitVector) v;
      b.allocateNew(n);
      int mode = random.nextInt(3);
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          b.setNull(i);
        } else {
          b.set(i, mode == 0 ? 1 : mode == 1 ? 0 : random.nextInt(2));
        }
      }
      b.setValueCount(n);
    } else if (v instanceof DecimalVector) {
      fillDecimal((DecimalVector) v, n, nulls);
    } else if (v instanceof FixedSizeBinaryVector) {
      FixedSizeBinaryVector f = (FixedSizeBinaryVector) v;
      f.allocateNew(n);
      byte[] same = bytes(f.getByteWidth());
      boolean constant = random.nextInt(4) == 0;
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          f.setNull(i);
        } else {
          f.set(i, constant ? same : bytes(f.getByteWidth()));
        }
      }
      f.setValueCount(n);
    } else if (v instanceof BaseFixedWidthVector) {
      fillFixedWidth((BaseFixedWidthVector) v, n, nulls);
    } else if (v instanceof BaseVariableWidthVector) {
      BaseVariableWidthVector b = (BaseVariableWidthVector) v;
      b.allocateNew(n);
      ValueSource src = valueSource(v.getField().getType());
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          b.setNull(i);
        } else {
          b.setSafe(i, src.next());
        }
      }
      b.setValueCount(n);
    } else if (v instanceof BaseLargeVariableWidthVector) {
      BaseLargeVariableWidthVector b = (BaseLargeVariableWidthVector) v;
      b.allocateNew(n);
      ValueSource src = valueSource(v.getField().getType());
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          b.setNull(i);
        } else {
          b.setSafe(i, src.next());
        }
      }
      b.setValueCount(n);
    } else {
      throw new IllegalArgumentException("RandomData cannot fill " + v.getField());
    }
  }

  // Roughly how many leaf values one element of a field holds, to keep nested lists bounded.
  private static int weight(Field f) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.FixedSizeList) {
      return ((ArrowType.FixedSizeList) t).getListSize() * weight(f.getChildren().get(0));
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList) {
      return 4 * weight(f.getChildren().get(0));
    }
    int w = 1;
    for (Field c : f.getChildren()) {
      w = Math.max(w, weight(c));
    }
    return w;
  }

  private int[] listLengths(int n, boolean[] nulls, boolean[] underNull, Field item) {
    int budget = Math.max(100, MAX_VALUES / weight(item));
    int[] lens = new int[n];
    int maxLen = random.nextInt(4) == 0 ? 40 : 6;
    int emptyEvery = random.nextInt(3) == 0 ? 0 : 2 + random.nextInt(6);
    long total = 0;
    for (int i = 0; i < n; i++) {
      if (nulls[i] || (underNull != null && underNull[i]) || (emptyEvery > 0 && random.nextInt(emptyEvery) == 0)) {
        continue;
      }
      lens[i] = random.nextInt(maxLen + 1);
      total += lens[i];
      if (total > budget) {
        total -= lens[i];
        lens[i] = 0;
      }
    }
    return lens;
  }

  private void fillList(ListVector l, int n, boolean[] nulls, boolean[] underNull) {
    l.setInitialCapacity(n);
    l.allocateNew();
    int[] lens = listLengths(n, nulls, underNull, l.getField().getChildren().get(0));
    int total = 0;
    for (int i = 0; i < n; i++) {
      if (nulls[i]) {
        l.setNull(i);
      } else {
        l.startNewValue(i);
        l.endValue(i, lens[i]);
        total += lens[i];
      }
    }
    fill(l.getDataVector(), total);
    l.setValueCount(n);
  }

  private void fillLargeList(LargeListVector l, int n, boolean[] nulls, boolean[] underNull) {
    l.setInitialCapacity(n);
    l.allocateNew();
    int[] lens = listLengths(n, nulls, underNull, l.getField().getChildren().get(0));
    int total = 0;
    for (int i = 0; i < n; i++) {
      if (nulls[i]) {
        l.setNull(i);
      } else {
        l.startNewValue(i);
        l.endValue(i, lens[i]);
        total += lens[i];
      }
    }
    fill(l.getDataVector(), total);
    l.setValueCount(n);
  }

  private void fillDecimal(DecimalVector d, int n, boolean[] nulls) {
    d.allocateNew(n);
    BigInteger bound = BigInteger.TEN.pow(d.getPrecision());
    int bits = 1 + random.nextInt(bound.bitLength());
    for (int i = 0; i < n; i++) {
      if (nulls[i]) {
        d.setNull(i);
        continue;
      }
      BigInteger unscaled = new BigInteger(bits, random).mod(bound);
      if (random.nextBoolean()) {
        unscaled = unscaled.negate();
      }
      d.set(i, new BigDecimal(unscaled, d.getScale()));
    }
    d.setValueCount(n);
  }

  // Writes random values of a chosen bit width straight into the data buffer; covers every
  // fixed-width type whose getObject is defined for any bit pattern in the chosen range.
  private void fillFixedWidth(BaseFixedWidthVector v, int n, boolean[] nulls) {
    v.allocateNew(n);
    int width = v.getTypeWidth();
    ArrowType type = v.getField().getType();
    boolean temporal = type instanceof ArrowType.Date || type instanceof ArrowType.Time
        || type instanceof ArrowType.Timestamp;
    boolean floating = type instanceof ArrowType.FloatingPoint;
    int maxBits = Math.min(width * 8, temporal ? 40 : 64);
    int bits = random.nextInt(4) == 0 ? maxBits : random.nextInt(maxBits + 1);
    int pattern = random.nextInt(6);
    long base = random.nextLong();
    long runValue = randomBits(bits);
    ArrowBuf data = v.getDataBuffer();
    ArrowBuf validity = v.getValidityBuffer();
    for (int i = 0; i < n; i++) {
      long x;
      if (floating && pattern == 0) {
        x = specialFloat(width);
      } else if (pattern == 1) {
        // Runs, for run-length encodings.
        if (random.nextInt(20) == 0) {
          runValue = randomBits(bits);
        }
        x = runValue;
      } else if (pattern == 2) {
        // Sorted, for deltas and runs.
        x = (long) i * (1 + (base & 7));
      } else if (pattern == 3 && !temporal && bits < 64) {
        // Small negatives: every high bit set.
        x = -randomBits(bits);
      } else {
        x = randomBits(bits);
      }
      if (temporal && width == 8 && type instanceof ArrowType.Date) {
        x = (x % 100_000) * 86_400_000L; // date64 holds whole days
      }
      if (temporal && type instanceof ArrowType.Time) {
        x = Math.floorMod(x, timeLimit((ArrowType.Time) type));
      }
      switch (width) {
        case 1:
          data.setByte(i, (byte) x);
          break;
        case 2:
          data.setShort(2L * i, (short) x);
          break;
        case 4:
          data.setInt(4L * i, (int) x);
          break;
        case 8:
          data.setLong(8L * i, x);
          break;
        default:
          throw new IllegalArgumentException("Unexpected width " + width + " of " + v.getField());
      }
      BitVectorHelper.setValidityBit(validity, i, nulls[i] ? 0 : 1);
    }
    v.setValueCount(n);
  }

  private static long timeLimit(ArrowType.Time t) {
    switch (t.getUnit()) {
      case SECOND:
        return 86_400L;
      case MILLISECOND:
        return 86_400_000L;
      case MICROSECOND:
        return 86_400_000_000L;
      default:
        return 86_400_000_000_000L;
    }
  }

  private long specialFloat(int width) {
    if (width == 2) {
      short[] s = {0x7e00, (short) 0xfc00, 0x7c00, (short) 0x8000, 0, 0x3c00, 0x0001};
      return s[random.nextInt(s.length)];
    }
    if (width == 4) {
      float[] f = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f,
          Float.MIN_VALUE, Float.MAX_VALUE, 1.5f, random.nextFloat()};
      return Float.floatToIntBits(f[random.nextInt(f.length)]);
    }
    double[] d = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
        Double.MIN_VALUE, Double.MAX_VALUE, 1.5, random.nextDouble()};
    return Double.doubleToLongBits(d[random.nextInt(d.length)]);
  }

  private long randomBits(int bits) {
    if (bits == 0) {
      return 0;
    }
    if (bits >= 64) {
      return random.nextLong();
    }
    return random.nextLong() & ((1L << bits) - 1);
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  /** Produces the values of one variable-width column. */
  private interface ValueSource {
    byte[] next();
  }

  private ValueSource valueSource(ArrowType type) {
    boolean text = type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8;
    int mode = random.nextInt(10);
    if (mode < 3) {
      // Low cardinality, for dictionaries.
      int k = 1 + random.nextInt(12);
      List<byte[]> dict = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        dict.add(text ? string(1 + random.nextInt(12)) : bytes(random.nextInt(12)));
      }
      return () -> dict.get(random.nextInt(k));
    }
    if (mode < 4) {
      // Long values: full-zip pages in 2.1, and some over a kilobyte.
      return () -> text ? string(200 + random.nextInt(1500)) : bytes(200 + random.nextInt(1500));
    }
    if (mode < 5) {
      // Empty values only.
      return () -> new byte[0];
    }
    int maxLen = 1 + random.nextInt(40);
    return () -> text ? string(random.nextInt(maxLen + 1)) : bytes(random.nextInt(maxLen + 1));
  }

  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz ABC0123456789_-/";
  private static final String[] WIDE = {"é", "ß", "日本", "𝄞", "ж", "☃"};

  private byte[] string(int chars) {
    StringBuilder b = new StringBuilder(chars);
    boolean wide = random.nextInt(4) == 0;
    for (int i = 0; i < chars; i++) {
      if (wide && random.nextInt(5) == 0) {
        b.append(WIDE[random.nextInt(WIDE.length)]);
      } else {
        b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A one-line description of a schema, for failure messages. */
  static String describe(Schema schema) {
    StringBuilder b = new StringBuilder();
    for (Field f : schema.getFields()) {
      if (b.length() > 0) {
        b.append(", ");
      }
      describe(f, b);
    }
    return b.toString();
  }

  private static void describe(Field f, StringBuilder b) {
    b.append(f.getName()).append(':').append(f.getType());
    if (!f.isNullable()) {
      b.append(" not null");
    }
    if (!f.getChildren().isEmpty()) {
      b.append('<');
      for (int i = 0; i < f.getChildren().size(); i++) {
        if (i > 0) {
          b.append(", ");
        }
        describe(f.getChildren().get(i), b);
      }
      b.append('>');
    }
  }
}
