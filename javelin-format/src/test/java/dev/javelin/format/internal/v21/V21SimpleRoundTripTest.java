package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class V21SimpleRoundTripTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void int32Column() throws Exception {
    try (IntVector v = new IntVector("x", allocator)) {
      v.allocateNew(5000);
      for (int i = 0; i < 5000; i++) {
        if (i % 7 == 3) {
          v.setNull(i);
        } else {
          v.set(i, i * 3);
        }
      }
      v.setValueCount(5000);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(v)) {
        Path f = V21Fixtures.write(dir.resolve("a.lance"), V21Fixtures.v21(), root);
        List<List<Object>> back = V21Fixtures.readAll(allocator, f, 1000);
        assertThat(back).isEqualTo(V21Fixtures.rows(root));
      }
    }
  }
}
