package dev.javelin.index.internal.bloom;

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
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An open bloom filter index ({@code _indices/{uuid}/bloomfilter.lance}): per zone of rows its
 * fragment, first row offset and span, whether it holds a null, and a bloom filter of its values.
 * Equality and IN keep the zones whose filter may hold a value, IS NULL the zones with a null;
 * the caller checks their rows again. The file does not record the column's type, which decides
 * the bytes hashed, so it is opened with it.
 */
public final class BloomFilterIndex implements ScalarIndex {
  /** The index's one file. */
  public static final String FILE_NAME = "bloomfilter.lance";
  static final String ITEMS_KEY = "bloomfilter_item";
  static final String PROBABILITY_KEY = "bloomfilter_probability";
  /** Lance's default zone size (distinct values expected per zone). */
  public static final long DEFAULT_ITEMS = 8192;
  /** Lance's default false positive rate. */
  public static final double DEFAULT_PROBABILITY = 0.00057;

  private final ArrowType valueType;
  private final long items;
  private final double probability;
  private final Zones zones;
  private final boolean[] hasNull;
  private final List<SplitBlockBloomFilter> filters;

  private BloomFilterIndex(ArrowType valueType, long items, double probability, Zones zones, boolean[] hasNull,
      List<SplitBlockBloomFilter> filters) {
    this.valueType = valueType;
    this.items = items;
    this.probability = probability;
    this.zones = zones;
    this.hasNull = hasNull;
    this.filters = filters;
  }

  /**
   * Reads the bloom filter index in {@code directory} of {@code store}, over a column of {@code valueType}.
   *
   * @throws IOException if its file cannot be read or is not a bloom filter index
   */
  public static BloomFilterIndex open(ObjectStore store, String directory, ArrowType valueType,
      BufferAllocator allocator) throws IOException {
    String path = directory + "/" + FILE_NAME;
    try (LanceFileReader r = LanceFileReader.open(store.open(path), allocator)) {
      List<String> names = r.schema().getFields().stream().map(f -> f.getName()).toList();
      if (!names.containsAll(List.of("fragment_id", "zone_start", "zone_length", "has_null", "bloom_filter_data"))) {
        throw new IOException("Not a bloom filter index (columns " + names + "): " + path);
      }
      String n = r.lanceSchema().metadata().get(ITEMS_KEY);
      String p = r.lanceSchema().metadata().get(PROBABILITY_KEY);
      Zones zones = new Zones();
      boolean[] nulls = new boolean[(int) r.numRows()];
      List<SplitBlockBloomFilter> filters = new ArrayList<>();
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(1024).build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          BaseIntVector fragment = (BaseIntVector) b.getVector("fragment_id");
          BaseIntVector start = (BaseIntVector) b.getVector("zone_start");
          BaseIntVector length = (BaseIntVector) b.getVector("zone_length");
          BitVector hasNull = (BitVector) b.getVector("has_null");
          VarBinaryVector data = (VarBinaryVector) b.getVector("bloom_filter_data");
          for (int i = 0; i < b.getRowCount(); i++) {
            nulls[zones.size()] = hasNull.get(i) != 0;
            zones.add(fragment.getValueAsLong(i), start.getValueAsLong(i), length.getValueAsLong(i));
            filters.add(SplitBlockBloomFilter.of(data.isNull(i) ? new byte[0] : data.get(i)));
          }
        }
      }
      return new BloomFilterIndex(valueType, n == null ? DEFAULT_ITEMS : Long.parseLong(n.trim()),
          p == null ? DEFAULT_PROBABILITY : Double.parseDouble(p.trim()), zones, nulls, filters);
    } catch (IllegalArgumentException e) {
      throw new IOException("Cannot read bloom filter index " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public IndexType type() {
    return IndexType.BLOOM_FILTER;
  }

  @Override
  public ArrowType valueType() {
    return valueType;
  }

  public long items() {
    return items;
  }

  public double probability() {
    return probability;
  }

  public Zones zones() {
    return zones;
  }

  @Override
  public boolean answers(ScalarQuery query) {
    switch (query.kind()) {
      case IS_NULL:
        return true;
      case EQUALS:
      case IN:
        // A NaN has many bit patterns: the filter may hold another one.
        return ValueBytes.supports(valueType)
            && query.values().stream().noneMatch(v -> v instanceof Double d && d.isNaN());
      default:
        return false;
    }
  }

  @Override
  public ScalarSearch search(ScalarQuery query) {
    if (!answers(query)) {
      return zones.select(z -> true);
    }
    if (query.kind() == ScalarQuery.Kind.IS_NULL) {
      return zones.select(z -> hasNull[z]);
    }
    List<Object> values = QueryLiterals.of(query, valueType).values();
    long[] hashes = new long[values.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = XxHash64.hash(ValueBytes.of(values.get(i), valueType));
    }
    return zones.select(z -> {
      for (long h : hashes) {
        if (filters.get(z).mightContain(h)) {
          return true;
        }
      }
      return false;
    });
  }

  /** The hash a value of a column of {@code type} is filed under (for tests). */
  static long hashOf(Object value, ArrowType type) {
    return XxHash64.hash(ValueBytes.of(ScalarValues.literal(value, type), type));
  }
}
