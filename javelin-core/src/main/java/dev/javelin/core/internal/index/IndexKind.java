package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The part of building an index that depends on its kind (BTree, bitmap, zone map, bloom filter, IVF_PQ): which columns it
 * takes, the builder the rows go to, the files it writes and the details its entry records.
 * {@link IndexBuild} does everything else (the name rules, the scan with the ids indices store,
 * the entry, the commit and the cleanup of written files), so a new kind is one class of this
 * interface plus its line in {@link #of}.
 */
interface IndexKind {
  /** The kind that builds and extends indices of {@code type} (default parameters), or null when Javelin has none. */
  static IndexKind of(IndexType type) {
    switch (type) {
      case BTREE:
        return new BTreeKind();
      case VECTOR:
        return new IvfPqKind(null);
      case BITMAP:
        return new BitmapKind();
      case ZONEMAP:
        return new ZoneMapKind(0);
      case BLOOM_FILTER:
        return new BloomFilterKind(0, 0);
      case LABEL_LIST:
        return new LabelListKind();
      case NGRAM:
        return new NGramKind();
      default:
        return null;
    }
  }

  /**
   * The field of {@code column}, checked to be one this kind indexes (before the name rules are
   * checked, as Lance does).
   */
  LanceField field(Dataset ds, String column);

  /** The files a build writes under the index's directory ({@code _indices/<uuid>/}), by name. */
  List<String> fileNames();

  /** A builder of a new index over {@code field}; every live row of the dataset goes to it. */
  Builder create(Dataset ds, LanceField field, BufferAllocator allocator) throws IOException;

  /**
   * A builder of the index replacing {@code entries} (an index and its deltas, in manifest order)
   * when optimize extends it to the {@code fresh} fragments: it holds the entries' rows that are
   * still live, and takes the rows of the fragments the extension names (the fresh ones, and any
   * whose rows the entries hold in a form the new index cannot carry over).
   */
  Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException;

  /**
   * Why {@code e}, thrown while extending an index, means the index is left as it is (optimize
   * reports it skipped with this reason); null when it is an error.
   */
  default String skipReason(RuntimeException e) {
    return null;
  }

  /** What a build that failed with {@code e} throws. */
  default RuntimeException buildFailed(RuntimeException e, String indexName, String column, String location) {
    return e;
  }

  /** What {@link #extend} made: the builder and the fragments whose rows it still takes. */
  record Extension(Builder builder, List<Fragment> scan) {}

  /** Takes an index's rows and writes its files. */
  interface Builder extends AutoCloseable {
    /** How many times the rows are handed over (a kind that trains on a sample first takes two). */
    default int passes() {
      return 1;
    }

    /** Called before each pass over the rows, {@code pass} from 0. */
    default void startPass(int pass) {}

    /** Takes {@code n} rows: the column's values (nulls included) and the ids the index stores. */
    void add(FieldVector values, long[] ids, int n) throws IOException;

    /**
     * Writes the index's files ({@link #fileNames}) under {@code directory}.
     *
     * @return the files the entry records with their sizes (empty when the kind records none)
     */
    List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException;

    /**
     * Sets what the kind records in the entry of the index it built, beyond what {@link IndexBuild}
     * sets: the details and index version of a new index. An extension's entry keeps those of the
     * index it extends.
     */
    void describe(IndexMetadata.Builder entry);

    /** Rows added from the scanned fragments (what optimize reports as added). */
    long rowsAdded();

    /** Rows of extended entries that were not carried over (deleted or gone). */
    long rowsDropped();

    @Override
    default void close() {}
  }
}
