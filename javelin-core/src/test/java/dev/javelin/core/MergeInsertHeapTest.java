package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge insert's heap is bounded by the source's key set, not the target: 100,000 changes
 * (half updates, half new keys) merge into 8,000,000 rows in a child JVM whose heap could not
 * hold the target's keys even as a bare {@code long[]} (64 MB).
 */
class MergeInsertHeapTest {
  private static final long TARGET = 8_000_000;
  private static final int CHANGES = 100_000;
  private static final String HEAP = "-Xmx48m";

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void aMergeOf100kKeysIntoATargetLargerThanTheHeapHoldsOnlyTheSourceKeys() throws Exception {
    Path ds = dir.resolve("ds");
    try (MergeInsertRows rows = MergeInsertRows.target(allocator, TARGET, 65_536)) {
      Dataset.create(ds, rows, WriteParams.builder().maxRowsPerFile(1 << 20).build(), allocator);
    }
    Path spill = dir.resolve("spill");
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"),
        MergeInsertHeapTest.class.getName(), ds.toString(), spill.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    boolean done = p.waitFor(5, TimeUnit.MINUTES);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(done).as("child merge finished").isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).contains("updated=" + CHANGES / 2 + " inserted=" + CHANGES / 2);
    Matcher peak = Pattern.compile("peakHeapMiB=(\\d+)").matcher(output);
    assertThat(peak.find()).as(output).isTrue();
    System.out.println("merge of " + CHANGES + " changes into " + TARGET + " rows, " + HEAP + ": " + output);
    // The target's keys alone, as a bare long[], would be 61 MiB.
    assertThat(Long.parseLong(peak.group(1))).isLessThan(48);
    try (Stream<Path> left = Files.list(spill)) {
      assertThat(left).isEmpty();
    }

    // Every row: ids below TARGET - CHANGES/2 as they were, the rest the source's.
    long count = 0;
    try (ArrowReader r = Dataset.open(ds, allocator).newScan().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        BigIntVector v = (BigIntVector) b.getVector("v");
        VarCharVector s = (VarCharVector) b.getVector("s");
        for (int i = 0; i < b.getRowCount(); i++) {
          long key = id.get(i);
          boolean changed = key >= TARGET - CHANGES / 2;
          if (v.get(i) != (changed ? 1000 + key : key)
              || !s.getObject(i).toString().equals(changed ? MergeInsertRows.s(key, 0) : "t" + key)) {
            throw new AssertionError("Row with id " + key + " is " + v.get(i) + "/" + s.getObject(i));
          }
          count++;
        }
      }
    }
    assertThat(count).isEqualTo(TARGET + CHANGES / 2);
  }

  /** The child JVM: merges the changes and prints the counts and the heap's peak during the merge. */
  public static void main(String[] args) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        MergeInsertRows changes = MergeInsertRows.source(allocator, TARGET - CHANGES / 2, CHANGES, 8192, 0,
            () -> { })) {
      Dataset ds = Dataset.open(Path.of(args[0]), allocator);
      // The heap in use after each collection during the merge (live data, not garbage not yet
      // collected): the largest is the merge's peak.
      AtomicLong peak = new AtomicLong();
      AtomicLong collections = new AtomicLong();
      Set<String> heapPools = new HashSet<>();
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          heapPools.add(pool.getName());
        }
      }
      NotificationListener afterGc = (n, ignored) -> {
        if (n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
          GarbageCollectionNotificationInfo info =
              GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
          long used = 0;
          for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
              used += e.getValue().getUsed();
            }
          }
          peak.accumulateAndGet(used, Math::max);
          collections.incrementAndGet();
        }
      };
      System.gc();
      long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((NotificationEmitter) gc).addNotificationListener(afterGc, null, null);
      }
      MergeInsertResult r = ds.mergeInsert(changes).on("id").whenMatchedUpdateAll().whenNotMatchedInsertAll()
          .spillDirectory(Path.of(args[1])).commit();
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        try {
          ((NotificationEmitter) gc).removeNotificationListener(afterGc);
        } catch (ListenerNotFoundException e) {
          throw new IllegalStateException(e);
        }
      }
      System.out.println("updated=" + r.rowsUpdated() + " inserted=" + r.rowsInserted());
      System.out.println("collections=" + collections.get() + " heapBeforeMiB=" + (before >> 20));
      System.out.println("peakHeapMiB=" + (peak.get() >> 20));
    }
  }
}
