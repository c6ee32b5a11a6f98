package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.util.ArrayList;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/** What the bitmap, zone map and bloom filter kinds share when building. */
final class ScalarColumns {
  private ScalarColumns() {}

  /**
   * The field of {@code column}, checked to be of a type {@code kind} indexes.
   *
   * @throws IllegalArgumentException if it is not
   */
  static LanceField field(Dataset ds, String column, String kind) {
    LanceField f = ds.fields(List.of(column)).get(0);
    if (!ScalarValues.supports(f.toArrow().getType())) {
      throw new IllegalArgumentException("A " + kind + " index cannot be built on column '" + column + "' of type "
          + f.toArrow().getType() + ": " + ds.location());
    }
    return f;
  }

  /**
   * Refuses datasets with stable row ids: zone maps and bloom filters name rows by address, which
   * such datasets' indices do not.
   */
  static void requireAddresses(Dataset ds, String kind) {
    if (ds.hasStableRowIds()) {
      throw new UnsupportedOperationException("Javelin cannot build " + kind
          + " indices on datasets with stable row ids yet: " + ds.location());
    }
  }

  /**
   * The fragments a rebuilt zone index takes rows from, in manifest order: those of {@code entries}
   * still in the dataset, and the {@code fresh} ones.
   */
  static List<Fragment> rescanned(Dataset ds, List<IndexMetadata> entries, List<Fragment> fresh) {
    RoaringBitmap covered = new RoaringBitmap();
    entries.forEach(i -> covered.or(i.fragmentBitmap()));
    fresh.forEach(f -> covered.add((int) f.id()));
    List<Fragment> out = new ArrayList<>();
    for (Fragment f : ds.manifest().fragments()) {
      if (f.id() <= 0xFFFFFFFFL && covered.contains((int) f.id())) {
        out.add(f);
      }
    }
    return out;
  }
}
