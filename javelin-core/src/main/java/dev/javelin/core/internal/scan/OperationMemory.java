package dev.javelin.core.internal.scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The memory of one operation (a scan, a take): a child of the caller's allocator named after the
 * operation, closed when the operation ends, so that memory it leaks is reported under its name
 * (Arrow's leak message names the allocator) instead of somewhere in the caller's root.
 */
public final class OperationMemory {
  private OperationMemory() {}

  /** A child of {@code parent} named {@code "<operation> <location>"}, e.g. {@code scan /data/ds}. */
  public static BufferAllocator child(BufferAllocator parent, String operation, String location) {
    return parent.newChildAllocator(operation + " " + location, 0, Long.MAX_VALUE);
  }

  /**
   * {@code reader}, closing {@code allocator} (the one it reads with) after itself. If the
   * allocator still holds memory then, closing the reader throws Arrow's leak report.
   */
  public static ArrowReader closingWith(ArrowReader reader, BufferAllocator allocator) {
    return new Scoped(reader, allocator);
  }

  /**
   * The vectors of {@code root} moved (not copied) to vectors of {@code to}, in a new root of the
   * same schema and row count; {@code root} is closed. Lets an operation hand back its result
   * and close its own allocator.
   */
  public static VectorSchemaRoot moveTo(VectorSchemaRoot root, BufferAllocator to) {
    try (root) {
      List<FieldVector> moved = new ArrayList<>();
      try {
        for (FieldVector v : root.getFieldVectors()) {
          FieldVector target = (FieldVector) v.getField().createVector(to);
          moved.add(target);
          v.makeTransferPair(target).transfer();
        }
        return new VectorSchemaRoot(root.getSchema(), moved, root.getRowCount());
      } catch (RuntimeException | Error e) {
        moved.forEach(FieldVector::close);
        throw e;
      }
    }
  }

  /** A reader handing out another's batches, that closes an allocator after closing it. */
  private static final class Scoped extends ArrowReader {
    private final ArrowReader reader;
    private final BufferAllocator owned;

    Scoped(ArrowReader reader, BufferAllocator owned) {
      super(owned);
      this.reader = reader;
      this.owned = owned;
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
      return reader.getVectorSchemaRoot();
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      return reader.loadNextBatch();
    }

    @Override
    public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
      return reader.getDictionaryVectors();
    }

    @Override
    public Dictionary lookup(long id) {
      return reader.lookup(id);
    }

    @Override
    public Set<Long> getDictionaryIds() {
      return reader.getDictionaryIds();
    }

    @Override
    public long bytesRead() {
      return reader.bytesRead();
    }

    @Override
    protected Schema readSchema() throws IOException {
      return reader.getVectorSchemaRoot().getSchema();
    }

    @Override
    protected void closeReadSource() throws IOException {
      try {
        reader.close();
      } catch (IOException | RuntimeException | Error e) {
        try {
          owned.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
      owned.close();
    }
  }
}
