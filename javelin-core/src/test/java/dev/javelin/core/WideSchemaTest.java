package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema handling is linear in the number of columns: a 100,000-column dataset is created,
 * appended to, scanned and projected in seconds (name lookups in loops made 100,000 columns take
 * minutes), and ten times the columns cost about ten times the work, not a hundred.
 */
class WideSchemaTest {
  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;

  // CPU time of the whole process (all threads), which other load on the machine does not inflate.
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private VectorSchemaRoot batch(Schema schema, long first) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    for (int c = 0; c < schema.getFields().size(); c++) {
      BigIntVector v = (BigIntVector) root.getVector(c);
      v.allocateNew(3);
      for (int r = 0; r < 3; r++) {
        v.set(r, (first + r) * 1_000_000 + c);
      }
    }
    root.setRowCount(3);
    return root;
  }

  /** Creates, appends to, reopens, projects and filters a dataset of {@code columns} columns; CPU nanos. */
  private long roundTrip(int columns) throws IOException {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      fields.add(Field.nullable("c" + c, new ArrowType.Int(64, true)));
    }
    Schema schema = new Schema(fields);
    Path path = dir.resolve("w" + columns);
    try (VectorSchemaRoot a = batch(schema, 0); VectorSchemaRoot b = batch(schema, 3)) {
      long start = cpuNanos();
      Dataset ds = Dataset.create(path, List.of(a), WriteParams.defaults(), allocator);
      ds = ds.append(List.of(b), WriteParams.defaults());
      Dataset reopened = Dataset.open(path, allocator);
      assertThat(reopened.schema().fields()).hasSize(columns);
      assertThat(reopened.countRows()).isEqualTo(6);
      String last = "c" + (columns - 1);
      List<String> got = new ArrayList<>();
      try (ArrowReader r = reopened.newScan().columns(last, "c0", "c" + columns / 2).build()) {
        while (r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          for (int i = 0; i < root.getRowCount(); i++) {
            got.add(root.getVector(0).getObject(i) + "," + root.getVector(1).getObject(i) + ","
                + root.getVector(2).getObject(i));
          }
        }
      }
      List<String> want = new ArrayList<>();
      for (long row = 0; row < 6; row++) {
        want.add((row * 1_000_000 + columns - 1) + "," + (row * 1_000_000) + "," + (row * 1_000_000 + columns / 2));
      }
      assertThat(got).isEqualTo(want);
      assertThat(reopened.countRows(last + " >= 3000000")).isEqualTo(3);
      return cpuNanos() - start;
    }
  }

  @Test
  void hundredThousandColumnsRoundTripInLinearTime() throws IOException {
    roundTrip(2_000); // warm-up: class loading and JIT would blur the first measurement
    long small = roundTrip(10_000);
    long large = roundTrip(100_000);
    // Linear: ~10x. The quadratic schema check alone took ~3 s at 10,000 columns and minutes at 100,000.
    assertThat(large).as("CPU ns: 10k columns %d, 100k columns %d", small, large)
        .isLessThan(30_000_000_000L)
        .isLessThan(small * 30);
  }
}
