package dev.javelin.index.internal.zonemap;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.index.internal.scalar.QueryLiterals;
import dev.javelin.index.internal.scalar.ScalarIndex;
import dev.javelin.index.internal.scalar.ScalarSearch;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.index.internal.scalar.Zones;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An open zone map ({@code _indices/{uuid}/zonemap.lance}): per zone of rows its fragment, first
 * row offset and span, the min and max of its non-null values and its null and NaN counts. A
 * search keeps the zones whose [min, max] may hold a match; their rows are checked again by the
 * caller.
 */
public final class ZoneMapIndex implements ScalarIndex {
  /** The index's one file. */
  public static final String FILE_NAME = "zonemap.lance";
  /** Schema metadata key of the zone size. */
  static final String ROWS_PER_ZONE_KEY = "rows_per_zone";
  /** Lance's default zone size. */
  public static final long DEFAULT_ROWS_PER_ZONE = 8192;

  private final ArrowType valueType;
  private final long rowsPerZone;
  private final Zones zones;
  private final List<Object> mins;
  private final List<Object> maxs;
  private final long[] nullCounts;

  private ZoneMapIndex(ArrowType valueType, long rowsPerZone, Zones zones, List<Object> mins, List<Object> maxs,
      long[] nullCounts) {
    this.valueType = valueType;
    this.rowsPerZone = rowsPerZone;
    this.zones = zones;
    this.mins = mins;
    this.maxs = maxs;
    this.nullCounts = nullCounts;
  }

  /**
   * Reads the zone map in {@code directory} of {@code store}.
   *
   * @throws IOException if its file cannot be read or is not a zone map
   */
  public static ZoneMapIndex open(ObjectStore store, String directory, BufferAllocator allocator) throws IOException {
    String path = directory + "/" + FILE_NAME;
    try (LanceFileReader r = LanceFileReader.open(store.open(path), allocator)) {
      List<String> names = r.schema().getFields().stream().map(f -> f.getName()).toList();
      if (!names.containsAll(List.of("min", "max", "null_count", "nan_count", "fragment_id", "zone_start",
          "zone_length"))) {
        throw new IOException("Not a zone map (columns " + names + "): " + path);
      }
      String size = r.lanceSchema().metadata().get(ROWS_PER_ZONE_KEY);
      long rowsPerZone = size == null ? DEFAULT_ROWS_PER_ZONE : Long.parseLong(size.trim());
      ArrowType type = r.schema().findField("min").getType();
      Zones zones = new Zones();
      List<Object> mins = new ArrayList<>();
      List<Object> maxs = new ArrayList<>();
      long[] nulls = new long[(int) r.numRows()];
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(8192).build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          FieldVector min = b.getVector("min");
          FieldVector max = b.getVector("max");
          BaseIntVector nullCount = (BaseIntVector) b.getVector("null_count");
          BaseIntVector nanCount = (BaseIntVector) b.getVector("nan_count");
          BaseIntVector fragment = (BaseIntVector) b.getVector("fragment_id");
          BaseIntVector start = (BaseIntVector) b.getVector("zone_start");
          BaseIntVector length = (BaseIntVector) b.getVector("zone_length");
          for (int i = 0; i < b.getRowCount(); i++) {
            int z = zones.size();
            zones.add(fragment.getValueAsLong(i), start.getValueAsLong(i), length.getValueAsLong(i));
            nulls[z] = nullCount.getValueAsLong(i);
            Object lo = ScalarValues.read(min, i);
            Object hi = ScalarValues.read(max, i);
            // Bounds that hold every value of the zone in total order, whatever the writer did
            // with zeros and NaNs (Lance may leave NaN out of max and count it apart, and may
            // report 0.0 for a zone holding -0.0).
            if (lo instanceof Double d && d == 0.0) {
              lo = -0.0;
            }
            if (hi instanceof Double d && (d == 0.0 || nanCount.getValueAsLong(i) > 0)) {
              hi = nanCount.getValueAsLong(i) > 0 ? Double.NaN : 0.0;
            }
            if (lo == null && hi == null && nanCount.getValueAsLong(i) > 0) {
              lo = Double.NaN;
              hi = Double.NaN;
            }
            mins.add(lo);
            maxs.add(hi);
          }
        }
      }
      return new ZoneMapIndex(type, rowsPerZone, zones, mins, maxs, nulls);
    } catch (IllegalArgumentException e) {
      throw new IOException("Cannot read zone map " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public IndexType type() {
    return IndexType.ZONEMAP;
  }

  @Override
  public ArrowType valueType() {
    return valueType;
  }

  public long rowsPerZone() {
    return rowsPerZone;
  }

  /** The zones, in file order. */
  public Zones zones() {
    return zones;
  }

  @Override
  public boolean answers(ScalarQuery query) {
    return true;
  }

  @Override
  public ScalarSearch search(ScalarQuery query) {
    QueryLiterals q = QueryLiterals.of(query, valueType);
    return zones.select(z -> q.mayMatch(mins.get(z), maxs.get(z), nullCounts[z]));
  }
}
