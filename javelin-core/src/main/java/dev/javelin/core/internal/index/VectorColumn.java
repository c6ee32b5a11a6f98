package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.FilteredReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Reads a {@code fixed_size_list<float32, d>} column as float arrays: streams live rows of some
 * fragments (optionally those a filter keeps) with their row addresses, skipping null vectors.
 */
public final class VectorColumn {
  /** Receives a batch: {@code n} vectors back to back in {@code vectors}, their addresses. */
  public interface Sink {
    void accept(float[] vectors, long[] addresses, int n);
  }

  private VectorColumn() {}

  /** The field of a vector column, checked to be {@code fixed_size_list<float32>}. */
  public static LanceField field(Dataset ds, String column) {
    LanceField f = ds.fields(List.of(column)).get(0);
    dimension(f.toArrow(), ds.location());
    return f;
  }

  /** The dimension of a fixed_size_list<float32> field. */
  public static int dimension(Field f, String location) {
    if (f.getType() instanceof ArrowType.FixedSizeList fsl && f.getChildren().size() == 1
        && f.getChildren().get(0).getType() instanceof ArrowType.FloatingPoint fp
        && fp.getPrecision() == FloatingPointPrecision.SINGLE) {
      return fsl.getListSize();
    }
    throw new VectorIndexException("Column '" + f.getName() + "' is " + f.getType()
        + ", not a fixed_size_list<float32> vector column: " + location);
  }

  /** Streams the vectors of some fragments with their row addresses. */
  public static void scan(Dataset ds, List<Fragment> fragments, LanceField field, BoundExpression filter,
      BufferAllocator allocator, Sink sink) throws IOException {
    scan(ds, fragments, field, filter, DatasetReader.Meta.ROW_ADDR, allocator, sink);
  }

  /**
   * Streams the vectors of some fragments with, as their ids, the meta column {@code id}: row
   * addresses ({@code ROW_ADDR}) or row ids ({@code ROW_ID}: stable row ids when the dataset has
   * them, what its indices hold).
   */
  public static void scan(Dataset ds, List<Fragment> fragments, LanceField field, BoundExpression filter,
      DatasetReader.Meta id, BufferAllocator allocator, Sink sink) throws IOException {
    if (fragments.isEmpty()) {
      return;
    }
    int dim = dimension(field.toArrow(), ds.location());
    List<LanceField> read = new ArrayList<>(List.of(field));
    if (filter != null) {
      for (LanceField f : ds.fields(filter.columns())) {
        if (!read.contains(f)) {
          read.add(f);
        }
      }
    }
    ArrowReader inner = new DatasetReader(ds.store(), ds.location(), fragments, read, 8192, List.of(id),
        ds.hasStableRowIds(), allocator);
    ArrowReader in = filter == null ? inner
        : new FilteredReader(inner, filter, new int[] {0, read.size()}, 0, -1, allocator);
    float[] vectors = new float[0];
    long[] addresses = new long[0];
    try (in) {
      while (in.loadNextBatch()) {
        VectorSchemaRoot b = in.getVectorSchemaRoot();
        int n = b.getRowCount();
        if (vectors.length < n * dim) {
          vectors = new float[n * dim];
          addresses = new long[n];
        }
        FixedSizeListVector v = (FixedSizeListVector) b.getVector(0);
        UInt8Vector addr = (UInt8Vector) b.getVector(b.getFieldVectors().size() - 1);
        int kept = copy(v, dim, n, vectors);
        int k = 0;
        for (int i = 0; i < n; i++) {
          if (!v.isNull(i)) {
            addresses[k++] = addr.get(i);
          }
        }
        sink.accept(vectors, addresses, kept);
      }
    }
  }

  /** Copies the non-null vectors of {@code v[0..n)} into {@code out}; returns how many. */
  static int copy(FixedSizeListVector v, int dim, int n, float[] out) {
    Float4Vector child = (Float4Vector) v.getDataVector();
    if (v.getNullCount() == 0) {
      child.getDataBuffer().nioBuffer(0, n * dim * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out, 0, n * dim);
      return n;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (!v.isNull(i)) {
        child.getDataBuffer().nioBuffer((long) i * dim * 4, dim * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer()
            .get(out, k * dim, dim);
        k++;
      }
    }
    return k;
  }

  static FixedSizeListVector asVectors(FieldVector f) {
    return (FixedSizeListVector) f;
  }
}
