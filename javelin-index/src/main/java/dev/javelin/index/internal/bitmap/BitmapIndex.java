package dev.javelin.index.internal.bitmap;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.index.internal.scalar.QueryLiterals;
import dev.javelin.index.internal.scalar.ScalarIndex;
import dev.javelin.index.internal.scalar.ScalarSearch;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * An open bitmap index ({@code _indices/{uuid}/bitmap_page_lookup.lance}): every distinct value
 * with the row addresses holding it, read whole into memory on open. Answers equality, IN,
 * ranges and IS NULL exactly.
 */
public final class BitmapIndex implements ScalarIndex {
  /** The index's one file. */
  public static final String FILE_NAME = "bitmap_page_lookup.lance";

  private final ArrowType valueType;
  private final NavigableMap<Object, Roaring64NavigableMap> byValue;
  private final Roaring64NavigableMap nulls;

  BitmapIndex(ArrowType valueType, NavigableMap<Object, Roaring64NavigableMap> byValue, Roaring64NavigableMap nulls) {
    this.valueType = valueType;
    this.byValue = byValue;
    this.nulls = nulls;
  }

  /**
   * Reads the bitmap index in {@code directory} of {@code store}.
   *
   * @throws IOException if its file cannot be read or is not a bitmap index
   */
  public static BitmapIndex open(ObjectStore store, String directory, BufferAllocator allocator) throws IOException {
    NavigableMap<Object, Roaring64NavigableMap> byValue = new TreeMap<>(ScalarValues.ORDER);
    Roaring64NavigableMap nulls = new Roaring64NavigableMap();
    ArrowType type = scan(store, directory, allocator, (keys, i, rows) -> {
      Object key = ScalarValues.read(keys, i);
      if (key == null) {
        nulls.or(rows);
      } else {
        byValue.merge(key, rows, (a, b) -> {
          a.or(b);
          return a;
        });
      }
    });
    return new BitmapIndex(type, byValue, nulls);
  }

  /** Receives one row of a bitmap index's file: its value ({@code keys[i]}) and the rows holding it. */
  public interface EntryConsumer {
    void accept(FieldVector keys, int i, Roaring64NavigableMap rows) throws IOException;
  }

  /**
   * Hands every row of the bitmap index in {@code directory} of {@code store} to {@code consumer}
   * (the vectors are valid during the call only).
   *
   * @return the indexed values' type
   * @throws IOException if its file cannot be read or is not a bitmap index
   */
  public static ArrowType scan(ObjectStore store, String directory, BufferAllocator allocator,
      EntryConsumer consumer) throws IOException {
    String path = directory + "/" + FILE_NAME;
    try (LanceFileReader r = LanceFileReader.open(store.open(path), allocator)) {
      if (r.schema().getFields().size() != 2 || !r.schema().getFields().get(1).getName().equals("bitmaps")) {
        throw new IOException("Not a bitmap index (columns " + r.schema().getFields() + "): " + path);
      }
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(1024).build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot batch = in.getVectorSchemaRoot();
          FieldVector keys = batch.getVector(0);
          VarBinaryVector bitmaps = (VarBinaryVector) batch.getVector(1);
          for (int i = 0; i < batch.getRowCount(); i++) {
            consumer.accept(keys, i, bitmaps.isNull(i) ? new Roaring64NavigableMap()
                : RowIdTreeMaps.read(bitmaps.get(i)));
          }
        }
      }
      return r.schema().getFields().get(0).getType();
    } catch (IllegalArgumentException e) {
      throw new IOException("Cannot read bitmap index " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public IndexType type() {
    return IndexType.BITMAP;
  }

  @Override
  public ArrowType valueType() {
    return valueType;
  }

  /** Distinct non-null values. */
  public int distinctValues() {
    return byValue.size();
  }

  @Override
  public boolean answers(ScalarQuery query) {
    return true;
  }

  @Override
  public ScalarSearch search(ScalarQuery query) {
    if (query.kind() == ScalarQuery.Kind.IS_NULL) {
      return ScalarSearch.exact(union(List.of(nulls)));
    }
    QueryLiterals q = QueryLiterals.of(query, valueType);
    List<Object> v = q.values();
    switch (q.kind()) {
      case EQUALS: {
        Roaring64NavigableMap rows = byValue.get(v.get(0));
        return ScalarSearch.exact(union(rows == null ? List.of() : List.of(rows)));
      }
      case IN: {
        Roaring64NavigableMap out = new Roaring64NavigableMap();
        for (Object x : v) {
          Roaring64NavigableMap rows = byValue.get(x);
          if (rows != null) {
            out.or(rows);
          }
        }
        return ScalarSearch.exact(out);
      }
      case LESS: return ScalarSearch.exact(union(byValue.headMap(v.get(0), false).values()));
      case LESS_OR_EQUAL: return ScalarSearch.exact(union(byValue.headMap(v.get(0), true).values()));
      case GREATER: return ScalarSearch.exact(union(byValue.tailMap(v.get(0), false).values()));
      case GREATER_OR_EQUAL: return ScalarSearch.exact(union(byValue.tailMap(v.get(0), true).values()));
      case BETWEEN:
        if (ScalarValues.compare(v.get(0), v.get(1)) > 0) {
          return ScalarSearch.exact(new Roaring64NavigableMap());
        }
        return ScalarSearch.exact(union(byValue.subMap(v.get(0), true, v.get(1), true).values()));
      default:
        throw new IllegalStateException("Unknown query kind " + q.kind());
    }
  }

  // A new set (the caller may change it) holding every row of `sets`.
  private static Roaring64NavigableMap union(Collection<Roaring64NavigableMap> sets) {
    Roaring64NavigableMap out = new Roaring64NavigableMap();
    for (Roaring64NavigableMap s : sets) {
      out.or(s);
    }
    return out;
  }
}
