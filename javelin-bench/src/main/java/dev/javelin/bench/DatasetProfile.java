package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;

/**
 * Runs one {@link DatasetBenchmark} operation in a loop, outside JMH, for profiling (JFR) and for
 * quick before/after timings on a busy machine: prints wall time and process CPU time per run.
 *
 * <p>Usage: {@code DatasetProfile DATASET_DIR OP IMPL RUNS} with OP one of scan, filter, take,
 * delete, addcol and IMPL javelin or lance. DATASET_DIR is only read: delete and addcol work on a
 * copy made (untimed) in a temporary directory.
 */
public final class DatasetProfile {
  private DatasetProfile() {}

  public static void main(String[] args) throws Exception {
    Path source = Path.of(args[0]);
    String op = args[1];
    String impl = args[2];
    int runs = Integer.parseInt(args[3]);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (BufferAllocator allocator = new RootAllocator()) {
      long rows = 1_000_000;
      Random random = new Random(42);
      long[] take = random.longs(1000, 0, rows).sorted().distinct()
          .map(r -> (r / DatasetBenchData.ROWS_PER_FILE) << 32 | (r % DatasetBenchData.ROWS_PER_FILE)).toArray();
      List<Long> takeList = new ArrayList<>();
      for (long a : take) {
        takeList.add(a);
      }
      Path scratch = Files.createTempDirectory("dsprofile-");
      double wallSum = 0;
      double cpuSum = 0;
      double mainSum = 0;
      int counted = 0;
      for (int run = 0; run < runs; run++) {
        Path copy = scratch.resolve("ds" + run);
        boolean writes = op.equals("delete") || op.equals("addcol");
        Path path = source;
        if (writes) {
          DatasetBenchData.copyTree(source, copy);
          path = copy;
        }
        Dataset javelin = impl.equals("javelin") ? Dataset.open(path, allocator) : null;
        org.lance.Dataset lance = impl.equals("lance") ? org.lance.Dataset.open(path.toString(), allocator) : null;
        long cpu0 = os.getProcessCpuTime();
        long main0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long result = switch (op) {
          case "scan" -> scan(javelin, lance, null);
          case "filter" -> scan(javelin, lance, DatasetBenchmark.FILTER);
          case "take" -> take(javelin, lance, take, takeList);
          case "scanscore" -> drain(javelin.newScan().columns("score").build());
          case "scanid" -> drain(javelin.newScan().columns("id").build());
          case "delete" -> delete(javelin, lance);
          case "addcol" -> addColumn(javelin, lance, allocator);
          default -> throw new IllegalArgumentException(op);
        };
        double wall = (System.nanoTime() - t0) / 1e6;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e6;
        double mainCpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - main0) / 1e6;
        if (lance != null) {
          lance.close();
        }
        if (writes) {
          DatasetBenchData.deleteTree(copy);
        }
        if (run >= runs / 3) {
          wallSum += wall;
          cpuSum += cpu;
          mainSum += mainCpu;
          counted++;
        }
        System.out.printf("%s %s run %d: %.1f ms wall, %.1f ms cpu (%d)%n", impl, op, run, wall, cpu, result);
      }
      System.out.printf("%s %s mean of last %d: %.1f ms wall, %.1f ms cpu (%.1f ms on the calling thread)%n", impl, op,
          counted, wallSum / counted, cpuSum / counted, mainSum / counted);
      DatasetBenchData.deleteTree(scratch);
    }
  }

  private static long scan(Dataset javelin, org.lance.Dataset lance, String filter) throws Exception {
    if (javelin != null) {
      try (ArrowReader r = javelin.newScan().filter(filter).batchSize(8192).build()) {
        return drain(r);
      }
    }
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(8192);
    if (filter != null) {
      options.filter(filter);
    }
    try (LanceScanner s = lance.newScan(options.build()); ArrowReader r = s.scanBatches()) {
      return drain(r);
    }
  }

  private static long drain(ArrowReader r) throws Exception {
    long rows = 0;
    while (r.loadNextBatch()) {
      rows += r.getVectorSchemaRoot().getRowCount();
    }
    return rows;
  }

  private static long take(Dataset javelin, org.lance.Dataset lance, long[] take, List<Long> takeList)
      throws Exception {
    if (javelin != null) {
      try (VectorSchemaRoot root = javelin.takeRows(take, null)) {
        return root.getRowCount();
      }
    }
    try (ArrowReader r = lance.takeRows(takeList, List.of("id", "score", "name"))) {
      return drain(r);
    }
  }

  private static long delete(Dataset javelin, org.lance.Dataset lance) {
    if (javelin != null) {
      return javelin.delete(DatasetBenchmark.DELETE_FILTER).version();
    }
    lance.delete(DatasetBenchmark.DELETE_FILTER);
    return lance.version();
  }

  private static long addColumn(Dataset javelin, org.lance.Dataset lance, BufferAllocator allocator) {
    if (javelin != null) {
      Field field = Field.nullable(DatasetBenchmark.NEW_COLUMN, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
      BoundExpression value = Expression.parse(DatasetBenchmark.NEW_COLUMN_SQL).bindValue(javelin.schema());
      return javelin.addColumns(new Schema(List.of(field)), value.columns(),
          batch -> new VectorSchemaRoot(List.of(value.evaluate(batch, field, allocator)))).version();
    }
    lance.addColumns(new SqlExpressions.Builder().withExpression(DatasetBenchmark.NEW_COLUMN,
        DatasetBenchmark.NEW_COLUMN_SQL).build(), Optional.empty());
    return lance.version();
  }
}
