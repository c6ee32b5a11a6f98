package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.bloom.BloomFilterIndex;
import dev.javelin.index.internal.bloom.BloomFilterWriter;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Bloom filter indices ({@code bloomfilter.lance}): a bloom filter per zone of rows. Optimize
 * rebuilds the zones of every fragment the entries still cover plus the fresh ones, with the
 * entries' parameters.
 */
final class BloomFilterKind implements IndexKind {
  private final long items;
  private final double probability;

  /**
   * @param items values per zone (the filter's capacity), or 0 for Lance's default (8,192)
   * @param probability the false positive rate, or 0 for Lance's default (0.00057)
   */
  BloomFilterKind(long items, double probability) {
    if (items < 0) {
      throw new IllegalArgumentException("bloom filter items per zone must be positive: " + items);
    }
    if (probability < 0 || probability >= 1) {
      throw new IllegalArgumentException("bloom filter false positive probability must be in (0, 1): "
          + probability);
    }
    this.items = items == 0 ? BloomFilterIndex.DEFAULT_ITEMS : items;
    this.probability = probability == 0 ? BloomFilterIndex.DEFAULT_PROBABILITY : probability;
  }

  @Override
  public LanceField field(Dataset ds, String column) {
    LanceField f = ScalarColumns.field(ds, column, "bloom filter");
    if (f.toArrow().getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Bool) {
      throw new IllegalArgumentException("A bloom filter index cannot be built on boolean column '" + column
          + "' (use a bitmap): " + ds.location());
    }
    return f;
  }

  @Override
  public List<String> fileNames() {
    return List.of(BloomFilterIndex.FILE_NAME);
  }

  @Override
  public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
    ScalarColumns.requireAddresses(ds, "bloom filter");
    return builder(field, items, probability, true, allocator);
  }

  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    ScalarColumns.requireAddresses(ds, "bloom filter");
    ObjectStore from = ds.manifest().basePaths().indexStore(ds.store(), entries.get(0));
    BloomFilterIndex old = BloomFilterIndex.open(from, IndexBuild.directory(entries.get(0).uuid()),
        field.toArrow().getType(), allocator);
    return new Extension(builder(field, old.items(), old.probability(), false, allocator),
        ScalarColumns.rescanned(ds, entries, fresh));
  }

  // The builder of a new (created) or extended zoned index of this kind.
  private static ZonedBuilder builder(LanceField field, long items, double probability,
      boolean created, BufferAllocator allocator) {
    return new ZonedBuilder(new BloomFilterWriter(field.toArrow().getType(), items, probability, allocator),
        IndexType.BLOOM_FILTER_DETAILS_TYPE_URL, created);
  }
}
