package dev.javelin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns the samples {@link BenchSuite} wrote (one or more thread budgets) into the Markdown tables
 * README quotes: per benchmark class, each operation at each thread budget with both sides' mean
 * wall time and CPU time per operation, and Javelin's speed relative to lance-core's with its
 * {@link RatioInterval#CONFIDENCE} interval ("no difference" when it holds 1.0). Rows whose two
 * variants are not Javelin and lance-core (a Javelin-only comparison, such as a repack against the
 * one-shot write of the same data) get the same treatment under their variants' names.
 *
 * <p>Usage: {@code BenchReport OUTPUT.md SAMPLES_FILE... [NOTES.txt]}: a {@code .txt} argument is a
 * {@link Notes} file, whose distinct lines go under the tables.
 */
public final class BenchReport {
  private BenchReport() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    List<Sample> samples = new ArrayList<>();
    java.util.Set<String> notes = new java.util.LinkedHashSet<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].endsWith(".txt")) {
        notes.addAll(Files.readAllLines(Path.of(args[i]), StandardCharsets.UTF_8));
      } else {
        samples.addAll(Sample.read(Path.of(args[i])));
      }
    }
    String text = header(samples) + tables(samples) + notes(notes);
    BenchSuite.ensureParent(out);
    Files.writeString(out, text, StandardCharsets.UTF_8);
    System.out.print(text);
    System.out.println("written to " + out);
  }

  /** Date, machine, thread budgets and how to read the numbers. */
  static String header(List<Sample> samples) {
    TreeSet<Integer> budgets = new TreeSet<>();
    samples.forEach(s -> budgets.add(s.threads()));
    StringBuilder out = new StringBuilder("# Javelin vs lance-core 7.0.0\n\n");
    out.append("- date: ").append(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME))
        .append(" UTC\n");
    out.append("- machine: ").append(machine()).append('\n');
    out.append("- thread budgets: ").append(budgets).append(" compute threads each side (lance-core:"
        + " LANCE_CPU_THREADS and scan batchReadahead; Javelin: -XX:ActiveProcessorCount, javelin.cpu.threads)\n");
    out.append("- A = Javelin and B = lance-core, unless a row names its variants (a Javelin-only comparison,"
        + " such as a repack against the one-shot write of the same rows)\n");
    out.append("- times: mean per operation +- the half-width of its ").append(percent()).append(" interval; n ="
        + " measured iterations per side (all forks). Ratio = lance-core mean time / Javelin mean time (above 1:"
        + " Javelin faster) with its ").append(percent()).append(" interval (Welch, on the log of the ratio);"
        + " \"no difference\" when the interval holds 1.0. CPU = process CPU time per operation, all threads"
        + " (JIT compiler and GC included).\n");
    return out.toString();
  }

  /** The tables, one per benchmark class, rows in the order the samples came. */
  static String tables(List<Sample> samples) {
    Map<String, Map<String, Map<String, Sample>>> byClass = new LinkedHashMap<>();
    for (Sample s : samples) {
      String cls = s.benchmark().replaceAll("\\.[^.]*$", "").replaceAll("^.*\\.", "");
      byClass.computeIfAbsent(cls, k -> new LinkedHashMap<>()).computeIfAbsent(s.rowKey(), k -> new LinkedHashMap<>())
          .put(s.impl(), s);
    }
    StringBuilder out = new StringBuilder();
    byClass.forEach((cls, rows) -> {
      out.append("\n## ").append(cls).append("\n\n");
      out.append("| operation | parameters | threads | n | A | B | A speed / B (").append(percent())
          .append(") | CPU A | CPU B | B CPU / A CPU |\n|---|---|---|---|---|---|---|---|---|---|\n");
      rows.values().forEach(sides -> out.append(row(sides)).append('\n'));
    });
    return out.toString();
  }

  static String notes(java.util.Collection<String> notes) {
    StringBuilder out = new StringBuilder();
    if (!notes.isEmpty()) {
      out.append("\nNotes from the set-ups' checks:\n\n");
      notes.stream().filter(n -> !n.isBlank()).forEach(n -> out.append("- ").append(n).append('\n'));
    }
    return out.toString();
  }

  /** One table row: Javelin (A) against lance-core (B), or a Javelin-only pair of variants, or one side alone. */
  static String row(Map<String, Sample> sides) {
    List<Sample> pair = new ArrayList<>();
    if (sides.containsKey("javelin") && sides.containsKey("lance")) {
      pair.add(sides.get("javelin"));
      pair.add(sides.get("lance"));
    } else {
      pair.addAll(sides.values());
    }
    Sample a = pair.get(0);
    String op = a.benchmark().replaceAll("^.*\\.", "");
    String params = a.paramText().replace(";", ", ");
    if (pair.size() == 1) {
      return String.format(Locale.ROOT, "| %s | %s | %d | %d | %s: %s | | | %s | | |", op, params, a.threads(),
          a.wall().length, label(a), time(a.wall(), a.unit()), time(a.cpu(), a.unit()));
    }
    Sample b = pair.get(1);
    boolean peers = label(a).equals("Javelin") && label(b).equals("lance-core");
    String names = peers ? "" : label(a) + " / " + label(b) + ": ";
    return String.format(Locale.ROOT, "| %s | %s | %d | %d/%d | %s%s | %s | %s | %s | %s | %s |", op, params,
        a.threads(), a.wall().length, b.wall().length, names, time(a.wall(), a.unit()), time(b.wall(), b.unit()),
        ratio(a.wall(), b.wall()), time(a.cpu(), a.unit()), time(b.cpu(), b.unit()), ratio(a.cpu(), b.cpu()));
  }

  static String label(Sample s) {
    return switch (s.impl()) {
      case "javelin" -> "Javelin";
      case "lance" -> "lance-core";
      default -> s.impl();
    };
  }

  static String ratio(double[] a, double[] b) {
    if (a.length == 0 || b.length == 0 || Double.isNaN(RatioInterval.mean(a)) || Double.isNaN(RatioInterval.mean(b))) {
      return "n/a";
    }
    if (a.length < 2 || b.length < 2) {
      return "n/a (fewer than 2 samples a side)";
    }
    return RatioInterval.of(a, b, RatioInterval.CONFIDENCE).describe();
  }

  static String time(double[] x, String unit) {
    if (x.length == 0 || Double.isNaN(RatioInterval.mean(x))) {
      return "n/a";
    }
    double mean = RatioInterval.mean(x);
    String u = unit.replace("/op", "");
    if (x.length < 2) {
      return String.format(Locale.ROOT, "%s %s", number(mean), u);
    }
    return String.format(Locale.ROOT, "%s +- %s %s", number(mean),
        number(RatioInterval.halfWidth(x, RatioInterval.CONFIDENCE)), u);
  }

  private static String number(double v) {
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : Math.abs(v) >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.4f", v);
  }

  private static String percent() {
    return String.format(Locale.ROOT, "%.1f%%", RatioInterval.CONFIDENCE * 100);
  }

  private static String machine() {
    String model = "unknown CPU";
    long memKb = 0;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          model = line.substring(line.indexOf(':') + 1).trim();
          break;
        }
      }
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          memKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: the processor count and OS below still say what ran it
    }
    String load;
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      load = f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      load = "unknown";
    }
    return String.format(Locale.ROOT, "%d cores (%s), %.1f GiB memory, %s %s, Java %s; load average at report time %s",
        Runtime.getRuntime().availableProcessors(), model, memKb / 1048576.0, System.getProperty("os.name"),
        System.getProperty("os.version"), System.getProperty("java.version"), load);
  }
}
