package dev.javelin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One benchmark's measured iterations at one thread budget for one side: a line of the samples file
 * {@link BenchSuite} writes and {@link BenchReport} reads (tab-separated: threads, benchmark,
 * params {@code k=v;k=v} without {@code impl}, impl, unit, wall times, CPU times; times
 * comma-separated).
 *
 * @param benchmark JMH's name, {@code dev.javelin.bench.Class.method}
 * @param params the JMH parameters other than {@code impl}
 * @param impl which side or variant ({@code javelin}, {@code lance}, ...)
 * @param unit e.g. {@code ms/op}
 * @param wall per-iteration wall time per operation
 * @param cpu per-iteration process CPU time per operation (NaN when not measured)
 */
public record Sample(int threads, String benchmark, SortedMap<String, String> params, String impl, String unit,
    double[] wall, double[] cpu) {

  /** The row this sample belongs to: everything but the side. */
  String rowKey() {
    return threads + "\t" + benchmark + "\t" + paramText();
  }

  String paramText() {
    return params.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";"));
  }

  String line() {
    return threads + "\t" + benchmark + "\t" + paramText() + "\t" + impl + "\t" + unit + "\t" + numbers(wall) + "\t"
        + numbers(cpu);
  }

  static Sample parse(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 7) {
      throw new IllegalArgumentException("Not a samples line (7 tab-separated fields expected): " + line);
    }
    TreeMap<String, String> params = new TreeMap<>();
    if (!f[2].isEmpty()) {
      for (String kv : f[2].split(";")) {
        int eq = kv.indexOf('=');
        params.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return new Sample(Integer.parseInt(f[0]), f[1], params, f[3], f[4], parseNumbers(f[5]), parseNumbers(f[6]));
  }

  static void append(Path file, List<Sample> samples) throws IOException {
    BenchSuite.ensureParent(file);
    StringBuilder text = new StringBuilder();
    samples.forEach(s -> text.append(s.line()).append('\n'));
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  static List<Sample> read(Path file) throws IOException {
    List<Sample> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        out.add(parse(line));
      }
    }
    return out;
  }

  private static String numbers(double[] x) {
    return Arrays.stream(x).mapToObj(v -> String.format(Locale.ROOT, "%.6g", v)).collect(Collectors.joining(","));
  }

  private static double[] parseNumbers(String text) {
    return text.isEmpty() ? new double[0] : Arrays.stream(text.split(",")).mapToDouble(Double::parseDouble).toArray();
  }

  static SortedMap<String, String> params(Map<String, String> params) {
    return new TreeMap<>(params);
  }
}
