package dev.javelin.compat;

import dev.javelin.compat.LanceToleranceChecks.Op;
import dev.javelin.compat.LanceToleranceChecks.Outcome;
import dev.javelin.compat.StablePartitionEntryCompatTest.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;

/**
 * The exploration behind {@link StablePartitionEntryCompatTest}: tries every candidate shape of the
 * {@code __lance_stable_partition} entry against lance-core, operation by operation, and writes the
 * findings table to {@code <out>/stable-partition-compat.md} and each outcome to
 * {@code <out>/stable-partition-details.md}. A main program, not a test: it asserts nothing (the
 * test pins the outcomes of the recommended and the naive shape).
 *
 * <p>Run from javelin-compat's test classpath, e.g. after {@code mvn -pl javelin-compat -am
 * test-compile}: {@code mvn -pl javelin-compat dependency:build-classpath -Dmdep.includeScope=test
 * -Dmdep.outputFile=cp.txt}, then {@code java --add-opens=java.base/java.nio=ALL-UNNAMED -cp
 * javelin-compat/target/test-classes:javelin-compat/target/classes:$(cat javelin-compat/cp.txt)
 * dev.javelin.compat.StablePartitionExplorer [out-dir [regex of shape labels]]}. It lives here, not
 * in javelin-bench, because it runs on this module's test fixtures ({@link LanceToleranceChecks},
 * the shapes).
 */
public final class StablePartitionExplorer {
  private StablePartitionExplorer() {}

  /** Arguments: the output directory (default {@code target}), and a regex of the shape labels to try. */
  public static void main(String[] args) throws IOException {
    Path outDir = Path.of(args.length > 0 ? args[0] : "target");
    String only = args.length > 1 ? args[1] : null;
    Files.createDirectories(outDir);
    Path scratch = Files.createTempDirectory("stable-partition-explore");
    StablePartitionEntryCompatTest fixture = new StablePartitionEntryCompatTest();
    try (RootAllocator allocator = new RootAllocator()) {
      fixture.allocator = allocator;
      explore(fixture, scratch, outDir, only);
    }
  }

  private static void explore(StablePartitionEntryCompatTest fixture, Path dir, Path outDir, String only)
      throws IOException {
    List<Op> ops = Arrays.asList(Op.values());
    StringBuilder md = new StringBuilder("| shape | bitmap |");
    ops.forEach(o -> md.append(' ').append(o).append(" |"));
    md.append("\n|---|---|").append("---|".repeat(ops.size())).append('\n');
    int n = 0;
    List<Object[]> runs = new ArrayList<>();
    for (Shape s : StablePartitionEntryCompatTest.SHAPES) {
      runs.add(new Object[] {s, new long[] {0, 1}});
    }
    runs.add(new Object[] {StablePartitionEntryCompatTest.RECOMMENDED, new long[] {0, 1}});
    // Not what Javelin writes (its bitmaps name retired ids only): what a live id would do.
    // (Two live ids: compaction's planner only merges neighbours with the same index coverage.)
    for (Shape s : List.of(StablePartitionEntryCompatTest.SHAPES.get(0), StablePartitionEntryCompatTest.RECOMMENDED,
        StablePartitionEntryCompatTest.SHAPES.get(10))) {
      runs.add(new Object[] {s, new long[] {0, 1, 2, 3}});
    }
    for (Object[] run : runs) {
      Shape s = (Shape) run[0];
      if (only != null && !s.label().matches(only)) {
        continue;
      }
      long[] bitmap = (long[]) run[1];
      Path base = dir.resolve("v" + n++);
      LanceToleranceChecks.Target t = fixture.datasetWithEntry(base.resolve("ds"), s, bitmap);
      Map<Op, Outcome> out = LanceToleranceChecks.run(t, ops, base.resolve("work"));
      md.append("| ").append(s.label()).append(" | ").append(Arrays.toString(bitmap)).append(" |");
      for (Op o : ops) {
        md.append(' ').append(out.get(o).cell()).append(" |");
      }
      md.append('\n');
      StringBuilder detail = new StringBuilder("## " + s.label() + "\n");
      out.values().forEach(o -> detail.append("- ").append(o).append('\n'));
      Files.writeString(outDir.resolve("stable-partition-details.md"), detail.toString(),
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      System.out.println(md);
      Files.writeString(outDir.resolve("stable-partition-compat.md"), md.toString());
    }
  }
}
