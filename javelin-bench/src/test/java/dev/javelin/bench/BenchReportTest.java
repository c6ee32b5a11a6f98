package dev.javelin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {
  private static Sample sample(int threads, String method, String impl, double[] wall, double[] cpu) {
    return new Sample(threads, "dev.javelin.bench.DatasetBenchmark." + method, new TreeMap<>(Map.of("writer", "lance")),
        impl, "ms/op", wall, cpu);
  }

  @Test
  void samplesSurviveTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("samples.tsv");
    Sample s = sample(2, "fullScan", "lance", new double[] {1.5, 2.25}, new double[] {Double.NaN, 3});
    Sample.append(file, List.of(s));
    Sample.append(file, List.of(sample(1, "fullScan", "javelin", new double[] {1}, new double[0])));
    List<Sample> back = Sample.read(file);
    assertThat(back).hasSize(2);
    assertThat(back.get(0).line()).isEqualTo(s.line());
    assertThat(back.get(0).wall()).containsExactly(1.5, 2.25);
    assertThat(back.get(0).cpu()[0]).isNaN();
    assertThat(back.get(0).params()).containsEntry("writer", "lance");
    assertThat(back.get(1).threads()).isEqualTo(1);
  }

  @Test
  void aDamagedSamplesLineIsNamed() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sample.parse("2\tdev.x.Y.z\timpl=lance"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a samples line")
        .hasMessageContaining("dev.x.Y.z");
  }

  @Test
  void tablesPairTheSidesAndSayNoDifference() {
    List<Sample> samples = List.of(
        sample(2, "fullScan", "javelin", new double[] {10.0, 10.1, 9.9, 10.0}, new double[] {15, 15.2, 14.8, 15}),
        sample(2, "fullScan", "lance", new double[] {20.0, 20.2, 19.8, 20.0}, new double[] {15, 15.3, 14.7, 15}),
        sample(2, "delete10Percent", "javelin", new double[] {10, 11, 9, 10}, new double[] {10, 11, 9, 10}),
        sample(2, "delete10Percent", "lance", new double[] {10, 12, 8, 10.5}, new double[] {10, 12, 8, 10.5}));
    String tables = BenchReport.tables(samples);
    assertThat(tables).contains("## DatasetBenchmark");
    assertThat(tables).containsPattern("\\| fullScan \\| writer=lance \\| 2 \\| 4/4 \\| 10\\.00 \\+- [0-9.]+ ms \\|"
        + " 20\\.00 \\+- [0-9.]+ ms \\| 2\\.00x \\(1\\.93-2\\.07\\) \\|");
    assertThat(tables).containsPattern("\\| delete10Percent \\| writer=lance \\| 2 \\| 4/4 \\| .*\\| no difference \\(1\\.01x");
    // CPU equal within noise on the scan: its CPU column says so too.
    assertThat(tables).containsPattern("(?m)\\| fullScan .*\\| no difference \\([0-9.]+x, [0-9.]+-[0-9.]+\\) \\|$");
  }

  @Test
  void javelinOnlyVariantsAreNamedAndSingleSamplesGetNoInterval() {
    Sample repack = new Sample(1, "dev.javelin.bench.RepackBenchmark.repackOrWriteOnce", new TreeMap<>(), "repack",
        "ms/op", new double[] {100, 101, 99}, new double[] {150, 151, 149});
    Sample oneShot = new Sample(1, "dev.javelin.bench.RepackBenchmark.repackOrWriteOnce", new TreeMap<>(), "oneshot",
        "ms/op", new double[] {200, 202, 198}, new double[] {300, 301, 299});
    String row = BenchReport.row(new java.util.LinkedHashMap<>(Map.of("repack", repack)));
    assertThat(row).startsWith("| repackOrWriteOnce |  | 1 | 3 | repack: 100 +- ");
    java.util.LinkedHashMap<String, Sample> pair = new java.util.LinkedHashMap<>();
    pair.put("repack", repack);
    pair.put("oneshot", oneShot);
    assertThat(BenchReport.row(pair)).contains("| repack / oneshot: 100 +- ").contains("| 2.00x (");
    Sample single = sample(2, "create", "javelin", new double[] {5}, new double[] {6});
    Sample other = sample(2, "create", "lance", new double[] {7}, new double[] {8});
    java.util.LinkedHashMap<String, Sample> thin = new java.util.LinkedHashMap<>();
    thin.put("javelin", single);
    thin.put("lance", other);
    assertThat(BenchReport.row(thin)).contains("n/a (fewer than 2 samples a side)");
  }

  @Test
  void reportFileHasMachineBudgetsDateAndNotes(@TempDir Path dir) throws Exception {
    Path samples = dir.resolve("s.tsv");
    Sample.append(samples, List.of(
        sample(1, "fullScan", "javelin", new double[] {10, 10.1}, new double[] {10, 10.1}),
        sample(1, "fullScan", "lance", new double[] {20, 20.1}, new double[] {20, 20.1}),
        sample(2, "fullScan", "javelin", new double[] {6, 6.1}, new double[] {12, 12.1}),
        sample(2, "fullScan", "lance", new double[] {12, 12.1}, new double[] {24, 24.1})));
    Path notes = dir.resolve("notes.txt");
    Files.writeString(notes, "recall 0.9\nrecall 0.9\nfile size 5 MB\n");
    Path out = dir.resolve("out/benchmarks.md");
    BenchReport.main(new String[] {out.toString(), samples.toString(), notes.toString()});
    String text = Files.readString(out);
    assertThat(text).startsWith("# Javelin vs lance-core 7.0.0");
    assertThat(text).contains("- date: ").contains(" UTC").contains("- machine: ").contains("cores")
        .contains("- thread budgets: [1, 2] compute threads each side");
    assertThat(text).contains("| fullScan | writer=lance | 1 | 2/2 |").contains("| fullScan | writer=lance | 2 | 2/2 |");
    assertThat(text).containsOnlyOnce("- recall 0.9").contains("- file size 5 MB");
  }
}
