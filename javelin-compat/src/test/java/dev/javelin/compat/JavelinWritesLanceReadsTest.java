package dev.javelin.compat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Files Javelin writes are read by the real Lance with the same values, row by row: a full scan,
 * then a row range of a projection. Javelin also reads its own file back. Pages are kept small
 * (often 1 KiB) so that files have many pages.
 *
 * <p>lance-core reads Javelin's files in a child JVM ({@link IsolatedLanceChecks}): a file it
 * chokes on may make it panic, which would abort this JVM. So each property is one jqwik try over
 * a list of {@link #CASES} seeds; a failure lists every failing seed with its shape. Replay one with
 * {@code check(version, profile, List.of(seed))}.
 */
class JavelinWritesLanceReadsTest {
  static final int CASES = 30;

  @Provide
  Arbitrary<List<Long>> seeds() {
    return Arbitraries.longs().list().ofSize(CASES);
  }

  @Property(seed = "20261130", tries = 1, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void v20(@ForAll("seeds") List<Long> seeds) throws IOException {
    check(LanceFileVersion.V2_0, RandomData.V2_0, seeds);
  }

  @Property(seed = "20261130", tries = 1, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void v21(@ForAll("seeds") List<Long> seeds) throws IOException {
    check(LanceFileVersion.V2_1, RandomData.V2_1, seeds);
  }

  @Property(seed = "20261202", tries = 1, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void v22(@ForAll("seeds") List<Long> seeds) throws IOException {
    check(LanceFileVersion.V2_2, RandomData.V2_1, seeds);
  }

  static void check(LanceFileVersion version, RandomData.Profile profile, List<Long> seeds) throws IOException {
    List<IsolatedLanceChecks.Case> cases = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    try {
      for (long seed : seeds) {
        Path file = Scratch.newFile("javelin-" + version + "-" + seed);
        files.add(file);
        try (BufferAllocator allocator = new RootAllocator();
            Sample sample = Sample.generate(seed, profile, allocator)) {
          long[] pageSizes = {1024, 4096, 65536, WriteOptions.DEFAULT_MAX_PAGE_BYTES};
          long maxPageBytes = pageSizes[sample.data.random().nextInt(pageSizes.length)];
          String context = "Javelin wrote " + version + " (maxPageBytes " + maxPageBytes + "), " + sample.describe();
          try {
            List<VectorSchemaRoot> batches = sample.batches();
            try {
              JavelinIO.write(file, version, maxPageBytes, sample.schema, batches);
            } finally {
              Table.closeAll(batches);
            }
            ReadChecks.javelin(file, sample.expected, sample.data.random(), allocator, context + ", read by Javelin");
            cases.add(new IsolatedLanceChecks.Case(file, seed, profile, context));
          } catch (IOException | RuntimeException | AssertionError e) {
            failures.add(e + (e.getMessage() != null && e.getMessage().contains(context) ? "" : "\n  [" + context + "]"));
          }
        }
      }
      failures.addAll(IsolatedLanceChecks.run(cases));
    } finally {
      files.forEach(Scratch::delete);
    }
    if (!failures.isEmpty()) {
      StringBuilder b = new StringBuilder(failures.size() + " of " + seeds.size() + " cases failed:");
      for (String f : failures) {
        b.append("\n- ").append(f);
      }
      throw new AssertionError(b.toString());
    }
  }
}
