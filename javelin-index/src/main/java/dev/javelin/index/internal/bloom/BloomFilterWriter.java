package dev.javelin.index.internal.bloom;

import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.index.internal.scalar.ZoneCutter;
import dev.javelin.index.internal.scalar.ZoneFiles;
import dev.javelin.index.internal.scalar.ZonedIndexWriter;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Takes rows in row address order and writes a bloom filter index's file: zones of {@code items}
 * rows cut at fragment ends, each with a filter sized for {@code items} values at false positive
 * rate {@code probability}, and whether it holds a null.
 */
public final class BloomFilterWriter implements ZonedIndexWriter {
  private final ArrowType valueType;
  private final long items;
  private final double probability;
  private final ZoneCutter cutter;
  private final VectorSchemaRoot out;
  private SplitBlockBloomFilter filter;
  private boolean nulls;
  private int zones;
  private long rows;

  /**
   * @throws IllegalArgumentException if values of {@code valueType} cannot be filtered, or the
   *     parameters are out of range (items positive, probability in (0, 1))
   */
  public BloomFilterWriter(ArrowType valueType, long items, double probability, BufferAllocator allocator) {
    if (!ValueBytes.supports(valueType)) {
      throw new IllegalArgumentException("A bloom filter index cannot be built on a column of type " + valueType);
    }
    if (!(probability > 0 && probability < 1)) {
      throw new IllegalArgumentException("The bloom filter's false positive probability must be in (0, 1): "
          + probability);
    }
    this.valueType = valueType;
    this.items = items;
    this.probability = probability;
    this.cutter = new ZoneCutter(items, this::endZone);
    FieldType u64 = FieldType.notNullable(new ArrowType.Int(64, false));
    this.out = VectorSchemaRoot.create(new Schema(List.of(
        new Field("fragment_id", u64, null),
        new Field("zone_start", u64, null),
        new Field("zone_length", u64, null),
        new Field("has_null", FieldType.notNullable(ArrowType.Bool.INSTANCE), null),
        new Field("bloom_filter_data", FieldType.notNullable(ArrowType.Binary.INSTANCE), null)),
        Map.of(BloomFilterIndex.ITEMS_KEY, Long.toString(items),
            BloomFilterIndex.PROBABILITY_KEY, java.math.BigDecimal.valueOf(probability).toPlainString())), allocator);
    out.allocateNew();
  }

  /** Adds {@code n} rows: their values and row addresses, ascending. */
  @Override
  public void add(FieldVector values, long[] addresses, int n) {
    for (int i = 0; i < n; i++) {
      cutter.place(addresses[i]);
      if (filter == null) {
        filter = SplitBlockBloomFilter.sized(items, probability);
      }
      rows++;
      Object v = ScalarValues.read(values, i);
      if (v == null) {
        nulls = true;
      } else {
        filter.insert(XxHash64.hash(ValueBytes.of(v, valueType)));
      }
    }
  }

  @Override
  public long rows() {
    return rows;
  }

  private void endZone(long fragment, long start, long length) {
    ((UInt8Vector) out.getVector("fragment_id")).setSafe(zones, fragment);
    ((UInt8Vector) out.getVector("zone_start")).setSafe(zones, start);
    ((UInt8Vector) out.getVector("zone_length")).setSafe(zones, length);
    ((BitVector) out.getVector("has_null")).setSafe(zones, nulls ? 1 : 0);
    ((VarBinaryVector) out.getVector("bloom_filter_data")).setSafe(zones, filter.bytes());
    zones++;
    filter = null;
    nulls = false;
  }

  /**
   * Writes {@code directory/bloomfilter.lance} in {@code store}.
   *
   * @return the file's size in bytes
   */
  @Override
  public long write(ObjectStore store, String directory) throws IOException {
    cutter.flush();
    out.setRowCount(zones);
    return ZoneFiles.write(store, directory + "/" + BloomFilterIndex.FILE_NAME, out);
  }

  @Override
  public String fileName() {
    return BloomFilterIndex.FILE_NAME;
  }

  @Override
  public void close() {
    out.close();
  }
}
