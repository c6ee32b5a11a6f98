package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The remap of a zone map or bloom filter after a rewrite moved rows: its zones name fragments and
 * row offsets, so the copy is built again, with the old index's parameters, from the column's
 * values in the fragments it covers after the rewrite (those it kept and the rewritten ones).
 */
public final class ZonedRebuild {
  private ZonedRebuild() {}

  /** Whether {@code index} is a zone map or bloom filter (the kinds rebuilt so). */
  public static boolean applies(IndexMetadata index) {
    IndexType type = IndexType.fromDetailsTypeUrl(index.details().typeUrl());
    return type == IndexType.ZONEMAP || type == IndexType.BLOOM_FILTER;
  }

  /**
   * Writes under {@code directory} of {@code store} the copy of the zoned index {@code old} over
   * the live rows of {@code fragments} (files of {@code ds}'s store, not necessarily in its
   * manifest yet), and returns the keys of the files written.
   *
   * @throws IllegalArgumentException if {@code old} is not a zone map or bloom filter, or its
   *     column is not in the schema
   * @throws IOException if the old index or the fragments cannot be read, or the copy written
   */
  public static List<String> write(Dataset ds, IndexMetadata old, List<Fragment> fragments, ObjectStore store,
      String directory, BufferAllocator allocator) throws IOException {
    if (!applies(old)) {
      throw new IllegalArgumentException("Not a zone map or bloom filter: index '" + old.name() + "'");
    }
    IndexKind kind = IndexKind.of(IndexType.fromDetailsTypeUrl(old.details().typeUrl()));
    LanceField field = null;
    for (LanceField f : ds.schema().fields()) {
      if (old.fields().size() == 1 && f.id() == old.fields().get(0)) {
        field = f;
      }
    }
    if (field == null) {
      throw new IllegalArgumentException("The column of index '" + old.name() + "' (field ids " + old.fields()
          + ") is not in the schema: " + ds.location());
    }
    // The extension reads the old index's parameters; the rows are those of `fragments`.
    IndexKind.Extension x = kind.extend(ds, List.of(old), field, List.of(), allocator);
    List<Fragment> ascending = new ArrayList<>(fragments);
    ascending.sort(java.util.Comparator.comparingLong(Fragment::id)); // the writers take ascending addresses
    List<String> written = new ArrayList<>();
    try (IndexKind.Builder b = x.builder()) {
      IndexRowIds.scan(ds, ascending, field, allocator, b::add);
      kind.fileNames().forEach(f -> written.add(directory + "/" + f));
      b.write(store, directory);
    }
    return written;
  }
}
