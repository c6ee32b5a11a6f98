package dev.javelin.table.deletion;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Merges newly deleted rows into a fragment's deletion vector: the one place a Delete, a
 * row-rewriting Update and their rebases over concurrent commits unite two vectors and either
 * write the union as the fragment's new deletion file or drop a fragment left without live rows.
 */
public final class DeletionMerge {

  private DeletionMerge() {}

  /**
   * Writes {@code existing} united with {@code rows} as the fragment's new deletion file.
   *
   * @param existing the rows the fragment has deleted already (its current deletion vector)
   * @param rows the rows to delete now
   * @param version the read version the deletion file is named after
   * @param written where the new file's key is recorded (deleted with it if the commit fails)
   * @return the fragment with its new deletion file, or empty if no live row is left (the fragment
   *     is to be removed; nothing is written)
   */
  public static Optional<Fragment> merge(ObjectStore store, Fragment fragment, RoaringBitmap existing,
      RoaringBitmap rows, long version, PendingFiles written, BufferAllocator allocator) throws IOException {
    RoaringBitmap merged = RoaringBitmap.or(existing, rows);
    if (merged.getLongCardinality() >= fragment.physicalRows()) {
      return Optional.empty();
    }
    DeletionFile file = DeletionFiles.write(store, fragment.id(), version, merged, allocator);
    written.add(file.key(fragment.id()));
    return Optional.of(withDeletions(fragment, file));
  }

  /** The first offset both vectors hold (a row deleted twice), if any. */
  public static OptionalLong firstShared(RoaringBitmap a, RoaringBitmap b) {
    if (!RoaringBitmap.intersects(a, b)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Integer.toUnsignedLong(RoaringBitmap.and(a, b).first()));
  }

  /** The fragment with {@code file} as its deletion file. */
  static Fragment withDeletions(Fragment f, DeletionFile file) {
    return Fragment.fromProto(f.proto().toBuilder().setDeletionFile(file.proto()).build());
  }
}
