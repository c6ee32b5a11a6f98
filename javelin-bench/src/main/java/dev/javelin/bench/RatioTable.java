package dev.javelin.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a JMH CSV result ({@code -rf csv}) of runs with {@code impl=javelin|lance} into a Markdown
 * table of ratios. A speed-up above 1 means Javelin is faster. Also reports file sizes recorded by
 * {@link FileWriteBenchmark}, and {@link DatasetBenchmark}'s operations in a second table.
 *
 * <p>Usage: {@code RatioTable results.csv [bench-dir]}
 */
public final class RatioTable {
  private RatioTable() {}

  public static void main(String[] args) throws IOException {
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    List<String> header = split(lines.get(0));
    int bench = header.indexOf("Benchmark");
    int score = header.indexOf("Score");
    int unit = header.indexOf("Unit");
    int impl = header.indexOf("Param: impl");
    int version = header.indexOf("Param: version");
    int writer = header.indexOf("Param: writer");
    Map<String, double[]> rows = new LinkedHashMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    Map<String, double[]> datasetRows = new LinkedHashMap<>();
    Map<String, String> datasetUnits = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      List<String> f = split(line);
      String qualified = f.get(bench);
      String name = qualified.replaceAll("^.*\\.", "");
      boolean dataset = qualified.contains(".DatasetBenchmark.");
      String key = dataset ? name
          : name + " | " + get(f, version) + (writer < 0 || f.get(writer).isEmpty() ? "" : " (" + f.get(writer) + " file)");
      Map<String, double[]> target = dataset ? datasetRows : rows;
      double[] pair = target.computeIfAbsent(key, k -> new double[] {Double.NaN, Double.NaN});
      pair[f.get(impl).equals("javelin") ? 0 : 1] = Double.parseDouble(f.get(score));
      (dataset ? datasetUnits : units).put(key, f.get(unit));
    }
    StringBuilder out = new StringBuilder();
    if (!rows.isEmpty()) {
      out.append("| operation | format | Javelin | lance-core | speed-up (lance-core time / Javelin time) |\n");
      out.append("|---|---|---|---|---|\n");
      rows.forEach((key, pair) -> out.append(String.format(Locale.ROOT, "| %s | %.1f %s | %.1f %s | %.2fx |%n",
          key, pair[0], units.get(key), pair[1], units.get(key), speedUp(pair, units.get(key)))));
    }
    Path dir = Path.of(args.length > 1 ? args[1] : "bench-data");
    List<String> sizes = new ArrayList<>();
    for (String v : List.of("2.0", "2.1")) {
      Path j = dir.resolve("size-javelin-" + v + ".txt");
      Path l = dir.resolve("size-lance-" + v + ".txt");
      if (Files.exists(j) && Files.exists(l)) {
        long js = Long.parseLong(Files.readString(j).trim());
        long ls = Long.parseLong(Files.readString(l).trim());
        sizes.add(String.format(Locale.ROOT, "| file size | %s | %.1f MB | %.1f MB | %.2fx (Javelin size / lance-core size) |",
            v, js / 1e6, ls / 1e6, (double) js / ls));
      }
    }
    sizes.forEach(s -> out.append(s).append('\n'));
    if (!datasetRows.isEmpty()) {
      out.append("\nDataset operations (DatasetBenchmark, format 2.1, same dataset both sides):\n\n");
      out.append("| operation | Javelin | lance-core | ratio (Javelin throughput / lance-core throughput) |\n");
      out.append("|---|---|---|---|\n");
      datasetRows.forEach((key, pair) -> out.append(String.format(Locale.ROOT, "| %s | %.2f %s | %.2f %s | %.2fx |%n",
          key, pair[0], datasetUnits.get(key), pair[1], datasetUnits.get(key), speedUp(pair, datasetUnits.get(key)))));
    }
    System.out.print(out);
  }

  // Javelin's throughput over lance-core's: a time ratio inverted, an ops-per-time ratio as is.
  private static double speedUp(double[] pair, String unit) {
    return unit.startsWith("ops/") ? pair[0] / pair[1] : pair[1] / pair[0];
  }

  private static String get(List<String> fields, int index) {
    return index < 0 ? "" : fields.get(index);
  }

  private static List<String> split(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (char c : line.toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }
}
