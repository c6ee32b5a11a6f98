package dev.javelin.compat;


import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Files the real Lance writes are read by Javelin with the same values: full scans in random batch
 * sizes, row ranges, projections and random takes.
 *
 * <p>For 2.1, lance-core 7.0.0 picks compressive encodings (bitpacking, FSST, dictionaries, RLE,
 * general compression) for most data, and Javelin does not read those yet. The 2.1 property reads
 * each file's page layouts from Javelin's metadata and skips (as an aborted try) a file that uses
 * any of them, counting the skips per encoding; half the files are written with field metadata
 * asking lance-core not to compress, which makes plain files more likely. Rep/def levels are still
 * bitpacked whenever lance-core sees fit, so nullable and nested shapes are skipped often.
 */
class LanceWritesJavelinReadsTest {
  /** lance-core's field metadata that turns off value compression, dictionaries and RLE. */
  static final Map<String, String> NO_COMPRESSION = Map.of(
      "lance-encoding:compression", "none",
      "lance-encoding:dict-size-ratio", "0.0001",
      "lance-encoding:rle-threshold", "0");

  private static final AtomicInteger CHECKED_21 = new AtomicInteger();
  private static final Map<String, Integer> SKIPPED_21 = new TreeMap<>();
  private static final AtomicInteger SKIPPED_FILES_21 = new AtomicInteger();

  @Property(seed = "20261130", tries = 40, shrinking = ShrinkingMode.OFF)
  void v20(@ForAll long seed) throws IOException {
    checkV20(seed);
  }

  static void checkV20(long seed) throws IOException {
    Path file = Scratch.newFile("lance-2.0-" + seed);
    try (BufferAllocator allocator = new RootAllocator();
        Sample sample = Sample.generate(seed, RandomData.V2_0, allocator)) {
      write(file, LanceFileVersion.V2_0, sample, allocator);
      ReadChecks.javelin(file, sample.expected, sample.data.random(), allocator,
          "lance-core wrote 2.0, " + sample.describe());
    } finally {
      Scratch.delete(file);
    }
  }

  @Property(seed = "20261130", tries = 100, shrinking = ShrinkingMode.OFF)
  void v21DefaultAndPlainEncodings(@ForAll long seed) throws IOException {
    Set<String> compressive = checkV21(seed);
    Statistics.label("2.1 files").collect(compressive.isEmpty() ? "plain encodings" : "compressive encodings");
  }

  /**
   * Writes the case with lance-core (its default compressive encodings on half the seeds) and
   * checks Javelin's reads of it.
   *
   * @return the compressive encodings lance-core used (empty if none)
   */
  static Set<String> checkV21(long seed) throws IOException {
    Path file = Scratch.newFile("lance-2.1-" + seed);
    boolean hints = Math.floorMod(seed, 2) == 0;
    try (BufferAllocator allocator = new RootAllocator();
        Sample sample = Sample.generate(seed, RandomData.V2_1, hints ? NO_COMPRESSION : Map.of(), allocator)) {
      write(file, LanceFileVersion.V2_1, sample, allocator);
      Set<String> compressive;
      try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
        compressive = PageEncodings.of(reader.metadata().columns()).compressive();
      }
      if (!compressive.isEmpty()) {
        record(compressive);
      }
      CHECKED_21.incrementAndGet();
      ReadChecks.javelin(file, sample.expected, sample.data.random(), allocator,
          "lance-core wrote 2.1" + (hints ? " (asked not to compress)" : "") + ", " + sample.describe());
      return compressive;
    } finally {
      Scratch.delete(file);
    }
  }

  /** lance-core writes 2.2 with its default encodings; Javelin reads every file. */
  @Property(seed = "20261202", tries = 40, shrinking = ShrinkingMode.OFF)
  void v22(@ForAll long seed) throws IOException {
    Path file = Scratch.newFile("lance-2.2-" + seed);
    try (BufferAllocator allocator = new RootAllocator();
        Sample sample = Sample.generate(seed, RandomData.V2_1, allocator)) {
      write(file, LanceFileVersion.V2_2, sample, allocator);
      ReadChecks.javelin(file, sample.expected, sample.data.random(), allocator,
          "lance-core wrote 2.2, " + sample.describe());
    } finally {
      Scratch.delete(file);
    }
  }

  private static synchronized void record(Set<String> encodings) {
    SKIPPED_FILES_21.incrementAndGet();
    for (String e : encodings) {
      SKIPPED_21.merge(e, 1, Integer::sum);
    }
  }

  @AfterContainer
  static synchronized void report() {
    System.out.println("[compat] lance-core 2.1 files read by Javelin: " + CHECKED_21.get()
        + "; skipped for compressive encodings: " + SKIPPED_FILES_21.get() + " (files per encoding: "
        + SKIPPED_21 + ")");
  }

  private static void write(Path file, LanceFileVersion version, Sample sample, BufferAllocator allocator)
      throws IOException {
    List<VectorSchemaRoot> batches = sample.batches();
    try {
      LanceOracle.write(file, version, allocator, batches);
    } finally {
      Table.closeAll(batches);
    }
  }
}
