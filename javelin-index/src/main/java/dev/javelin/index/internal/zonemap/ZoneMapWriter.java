package dev.javelin.index.internal.zonemap;

import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.index.internal.scalar.ZoneCutter;
import dev.javelin.index.internal.scalar.ZoneFiles;
import dev.javelin.index.internal.scalar.ZonedIndexWriter;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Takes rows in row address order and writes a zone map's file: zones of {@code rowsPerZone} rows
 * cut at fragment ends, each with the min and max of its non-null values (IEEE total order for
 * floats, so NaN is the max of a zone holding one), its null and NaN counts, and its fragment,
 * first row offset and span.
 */
public final class ZoneMapWriter implements ZonedIndexWriter {
  private final long rowsPerZone;
  private final VectorSchemaRoot out;
  private final FieldVector min;
  private final FieldVector max;
  private final ZoneCutter cutter;
  private Object zoneMin;
  private Object zoneMax;
  private long nulls;
  private long nans;
  private int zones;
  private long rows;

  /**
   * @throws IllegalArgumentException if values of {@code valueType} cannot be indexed or the zone size is not positive
   */
  public ZoneMapWriter(ArrowType valueType, long rowsPerZone, BufferAllocator allocator) {
    if (!ScalarValues.supports(valueType)) {
      throw new IllegalArgumentException("A zone map cannot be built on a column of type " + valueType);
    }
    this.rowsPerZone = rowsPerZone;
    this.cutter = new ZoneCutter(rowsPerZone, this::endZone);
    this.out = VectorSchemaRoot.create(schema(valueType, rowsPerZone), allocator);
    out.allocateNew();
    this.min = out.getVector("min");
    this.max = out.getVector("max");
  }

  static Schema schema(ArrowType valueType, long rowsPerZone) {
    FieldType u32 = FieldType.notNullable(new ArrowType.Int(32, false));
    FieldType u64 = FieldType.notNullable(new ArrowType.Int(64, false));
    return new Schema(List.of(
        new Field("min", FieldType.nullable(valueType), null),
        new Field("max", FieldType.nullable(valueType), null),
        new Field("null_count", u32, null),
        new Field("nan_count", u32, null),
        new Field("fragment_id", u64, null),
        new Field("zone_start", u64, null),
        new Field("zone_length", u64, null)),
        Map.of(ZoneMapIndex.ROWS_PER_ZONE_KEY, Long.toString(rowsPerZone)));
  }

  public long rowsPerZone() {
    return rowsPerZone;
  }

  /** Adds {@code n} rows: their values and row addresses, ascending. */
  @Override
  public void add(FieldVector values, long[] addresses, int n) {
    for (int i = 0; i < n; i++) {
      cutter.place(addresses[i]);
      Object v = ScalarValues.read(values, i);
      rows++;
      if (v == null) {
        nulls++;
        continue;
      }
      if (ScalarValues.isNaN(v)) {
        nans++;
      }
      if (zoneMin == null || ScalarValues.compare(v, zoneMin) < 0) {
        zoneMin = v;
        min.copyFromSafe(i, zones, values);
      }
      if (zoneMax == null || ScalarValues.compare(v, zoneMax) > 0) {
        zoneMax = v;
        max.copyFromSafe(i, zones, values);
      }
    }
  }

  /** Rows added (not counting copied zones). */
  @Override
  public long rows() {
    return rows;
  }

  private void endZone(long fragment, long start, long length) {
    if (zoneMin == null) {
      min.setNull(zones);
      max.setNull(zones);
    }
    ((UInt4Vector) out.getVector("null_count")).setSafe(zones, (int) nulls);
    ((UInt4Vector) out.getVector("nan_count")).setSafe(zones, (int) nans);
    ((UInt8Vector) out.getVector("fragment_id")).setSafe(zones, fragment);
    ((UInt8Vector) out.getVector("zone_start")).setSafe(zones, start);
    ((UInt8Vector) out.getVector("zone_length")).setSafe(zones, length);
    zones++;
    zoneMin = null;
    zoneMax = null;
    nulls = 0;
    nans = 0;
  }

  /**
   * Writes {@code directory/zonemap.lance} in {@code store}.
   *
   * @return the file's size in bytes
   */
  @Override
  public long write(ObjectStore store, String directory) throws IOException {
    cutter.flush();
    out.setRowCount(zones);
    return ZoneFiles.write(store, directory + "/" + ZoneMapIndex.FILE_NAME, out);
  }

  @Override
  public String fileName() {
    return ZoneMapIndex.FILE_NAME;
  }

  @Override
  public void close() {
    out.close();
  }
}
