package dev.javelin.compat;

import dev.javelin.format.LanceFileVersion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The harness checked against itself: lance-core reads its own files back equal to what it was
 * given (full scans, ranges, projections). If this fails, the generator left what lance-core can
 * store, or the comparison is wrong; the Javelin properties would be meaningless.
 */
class OracleRoundTripTest {
  @Property(seed = "20261130", tries = 15, shrinking = ShrinkingMode.OFF)
  void v20(@ForAll long seed) throws IOException {
    check(LanceFileVersion.V2_0, RandomData.V2_0, seed);
  }

  @Property(seed = "20261130", tries = 15, shrinking = ShrinkingMode.OFF)
  void v21(@ForAll long seed) throws IOException {
    check(LanceFileVersion.V2_1, RandomData.V2_1, seed);
  }

  static void check(LanceFileVersion version, RandomData.Profile profile, long seed) throws IOException {
    Path file = Scratch.newFile("oracle-" + version + "-" + seed);
    try (BufferAllocator allocator = new RootAllocator();
        Sample sample = Sample.generate(seed, profile, allocator)) {
      List<VectorSchemaRoot> batches = sample.batches();
      try {
        LanceOracle.write(file, version, allocator, batches);
      } finally {
        Table.closeAll(batches);
      }
      ReadChecks.lance(file, sample.expected, sample.data.random(), allocator,
          "lance-core wrote and read " + version + ", " + sample.describe());
    } finally {
      Scratch.delete(file);
    }
  }
}
