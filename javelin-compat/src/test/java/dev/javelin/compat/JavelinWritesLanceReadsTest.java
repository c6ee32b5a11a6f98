package dev.javelin.compat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.encoding.WriteOptions;
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
 * Files Javelin writes are read by the real Lance with the same values, row by row: a full scan,
 * then a row range of a projection. Javelin also reads its own file back. Pages are kept small
 * (often 1 KiB) so that files have many pages.
 *
 * <p>A failure message starts with the difference and ends with the case ({@code seed=...});
 * replay it with {@code @Property(seed = ...)} or by calling {@link #check} with that seed.
 */
class JavelinWritesLanceReadsTest {
  @Property(tries = 30, shrinking = ShrinkingMode.OFF)
  void v20(@ForAll long seed) throws IOException {
    check(LanceFileVersion.V2_0, RandomData.V2_0, seed);
  }

  @Property(tries = 30, shrinking = ShrinkingMode.OFF)
  void v21(@ForAll long seed) throws IOException {
    check(LanceFileVersion.V2_1, RandomData.V2_1, seed);
  }

  static void check(LanceFileVersion version, RandomData.Profile profile, long seed) throws IOException {
    Path file = Scratch.newFile("javelin-" + version + "-" + seed);
    try (BufferAllocator allocator = new RootAllocator();
        Sample sample = Sample.generate(seed, profile, allocator)) {
      long[] pageSizes = {1024, 4096, 65536, WriteOptions.DEFAULT_MAX_PAGE_BYTES};
      long maxPageBytes = pageSizes[sample.data.random().nextInt(pageSizes.length)];
      String context = "Javelin wrote " + version + " (maxPageBytes " + maxPageBytes + "), " + sample.describe();
      List<VectorSchemaRoot> batches = sample.batches();
      try {
        JavelinIO.write(file, version, maxPageBytes, sample.schema, batches);
      } finally {
        Table.closeAll(batches);
      }
      ReadChecks.lance(file, sample.expected, sample.data.random(), allocator, context);
      ReadChecks.javelin(file, sample.expected, sample.data.random(), allocator, context + ", read by Javelin");
    } finally {
      Scratch.delete(file);
    }
  }
}
