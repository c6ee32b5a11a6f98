package dev.javelin.format;

import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.internal.encoding.FieldDecoder;
import java.io.IOException;
import java.util.Arrays;

/**
 * Copies the vectors of given rows of a {@code fixed_size_list<float32, dim>} column into float
 * arrays, straight from the file's pages (see {@link LanceFileReader#floatVectors}). Keeps the
 * page last read; not safe for concurrent use.
 */
public final class FloatVectorReader implements AutoCloseable {
  private final String location;
  private final FieldDecoder decoder;
  private final int dim;
  private final long numRows;
  private final Prefetch prefetch;

  /** Fetches the bytes of rows (sorted, distinct) at once before they are copied. */
  @FunctionalInterface
  interface Prefetch {
    void rows(long[] rows) throws IOException;
  }

  FloatVectorReader(String location, FieldDecoder decoder, int dim, long numRows, Prefetch prefetch) {
    this.location = location;
    this.decoder = decoder;
    this.dim = dim;
    this.numRows = numRows;
    this.prefetch = prefetch;
  }

  /** Floats per vector. */
  public int dimension() {
    return dim;
  }

  /**
   * Copies the vectors of rows {@code rows[from..to)} into {@code out}: row {@code rows[from + i]}
   * at {@code out[i * dimension()]}.
   *
   * @param rows row indices of the file, sorted and distinct in {@code [from, to)}
   * @throws IndexOutOfBoundsException if a row is out of range
   * @throws IllegalArgumentException if the rows are not sorted and distinct, or {@code out}
   *     cannot hold their vectors
   * @throws CorruptFileException if the pages do not hold the rows' bytes
   */
  public void read(long[] rows, int from, int to, float[] out) throws IOException {
    if ((long) (to - from) * dim > out.length) {
      throw new IllegalArgumentException((to - from) + " vectors of " + dim + " floats do not fit in "
          + out.length + " floats: " + location);
    }
    for (int i = from; i < to; i++) {
      long r = rows[i];
      if (r < 0 || r >= numRows) {
        throw new IndexOutOfBoundsException("Row " + r + " is out of range for a file of " + numRows + " rows: "
            + location);
      }
      if (i > from && r <= rows[i - 1]) {
        throw new IllegalArgumentException("Rows must be sorted and distinct; got " + r + " after " + rows[i - 1]
            + ": " + location);
      }
    }
    try {
      if (prefetch != null && to > from) {
        prefetch.rows(Arrays.copyOfRange(rows, from, to));
      }
      decoder.readFloats(rows, from, to, dim, out);
    } catch (LanceFormatException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CorruptFileException(location, "Column '" + decoder.field().name() + "' could not be read ("
          + e + ")", e);
    }
  }

  @Override
  public void close() {
    decoder.close();
  }
}
