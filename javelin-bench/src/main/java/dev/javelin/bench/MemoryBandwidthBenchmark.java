package dev.javelin.bench;

import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The memory-bandwidth reference for full scans: the time to read every byte of the page-cached
 * file {@link FileReadBenchmark} scans (written by lance-core, format 2.1), mapped into memory and
 * summed as longs by the thread budget's threads. No decoder can scan the file faster than this;
 * a full scan's time over this one says how far it is from the limit (issue 19's target: within
 * 3x). One row, no peer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class MemoryBandwidthBenchmark {
  /** Not a side: the reference itself. */
  @Param({"bandwidth"})
  public String impl;

  private final List<MappedByteBuffer> slices = new ArrayList<>();
  private ExecutorService pool;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    int threads = ThreadBudget.threads();
    Path file;
    try (RootAllocator allocator = new RootAllocator()) {
      file = BenchData.writeLance(allocator, BenchData.dir().resolve("lance-2.1.lance"), "2.1", BenchData.rows());
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      long per = (size / threads + 7) / 8 * 8;
      for (long start = 0; start < size; start += per) {
        MappedByteBuffer slice = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(per, size - start));
        slice.order(ByteOrder.LITTLE_ENDIAN);
        slices.add(slice);
      }
    }
    pool = Executors.newFixedThreadPool(threads);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pool.shutdown();
  }

  @Benchmark
  public long readEveryByteOfTheFile() throws Exception {
    List<Future<Long>> sums = new ArrayList<>();
    for (MappedByteBuffer slice : slices) {
      sums.add(pool.submit(() -> {
        long sum = 0;
        int longs = slice.limit() / 8;
        for (int i = 0; i < longs; i++) {
          sum += slice.getLong(i * 8);
        }
        for (int i = longs * 8; i < slice.limit(); i++) {
          sum += slice.get(i);
        }
        return sum;
      }));
    }
    long total = 0;
    for (Future<Long> f : sums) {
      total += f.get();
    }
    return total;
  }
}
