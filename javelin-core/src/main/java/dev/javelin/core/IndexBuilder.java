package dev.javelin.core;

import dev.javelin.common.ProgressListener;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import java.util.Objects;

/**
 * An index over one column being configured; {@link #commit()} builds it from every row and
 * commits it (a CreateIndex). Start with {@link Dataset#createIndex(String)}:
 *
 * <pre>{@code
 * dataset.createIndex("id").btree().name("id_idx").replace().commit();
 * dataset.createIndex("embedding").ivfPq(IvfPqParams.of(256, 16, DistanceType.L2)).commit();
 * }</pre>
 */
public final class IndexBuilder {
  private final Dataset dataset;
  private final String column;
  private IndexType type;
  private IvfPqParams params;
  private String name;
  private boolean replace;
  private ProgressListener progress = ProgressListener.NONE;

  IndexBuilder(Dataset dataset, String column) {
    this.dataset = dataset;
    this.column = Objects.requireNonNull(column, "column");
  }

  /** A BTree scalar index: equality, range and IN filters. */
  public IndexBuilder btree() {
    return type(IndexType.BTREE);
  }

  /** An IVF_PQ vector index with Lance's default parameters for the column's size and width. */
  public IndexBuilder vector() {
    return type(IndexType.VECTOR);
  }

  /** An IVF_PQ vector index with these parameters. */
  public IndexBuilder ivfPq(IvfPqParams params) {
    this.type = IndexType.VECTOR;
    this.params = Objects.requireNonNull(params, "params");
    return this;
  }

  /** The kind of index ({@link IndexType#VECTOR}: IVF_PQ with Lance's default parameters). */
  public IndexBuilder type(IndexType type) {
    this.type = Objects.requireNonNull(type, "type");
    this.params = null;
    return this;
  }

  /** The index name (default {@code <column>_idx}). */
  public IndexBuilder name(String name) {
    this.name = Objects.requireNonNull(name, "name");
    return this;
  }

  /** Replace an index of the same name instead of refusing to build. */
  public IndexBuilder replace() {
    this.replace = true;
    return this;
  }

  /**
   * Hears the build's progress: a stage per pass over the rows (a vector index reads its sample
   * for training first, then every row), counting rows, then the writing of the index's files.
   */
  public IndexBuilder progress(ProgressListener listener) {
    this.progress = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Builds the index and commits it.
   *
   * @throws IllegalStateException if no kind of index was chosen
   * @throws IllegalArgumentException if the column cannot be indexed so
   * @throws dev.javelin.core.exceptions.IndexExistsException if the name is taken and {@link #replace()} was not asked for
   */
  public CreateIndexResult commit() {
    if (type == null) {
      throw new IllegalStateException("Choose the kind of index on '" + column
          + "': btree(), vector(), ivfPq(params) or type(...)");
    }
    Dataset after = dataset.buildIndex(column, type, params, name, replace, progress);
    String built = name == null ? column + "_idx" : name;
    IndexInfo info = after.indices().stream().filter(i -> i.name().equals(built)).findFirst()
        .orElseThrow(() -> new IllegalStateException("The index just built is missing: " + built));
    return new CreateIndexResult(after, info);
  }
}
