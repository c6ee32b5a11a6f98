package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A CSV with 100,000 columns becomes a dataset in a child JVM with a 512 MB heap. */
class WideCsvTest extends CliTestBase {
  static final int COLUMNS = 100_000;
  static final int ROWS = 40;

  /** Child JVM: runs one javelin command, then prints its exit code and the peak resident memory. */
  public static void main(String[] args) throws Exception {
    PrintWriter out = new PrintWriter(System.out, true);
    int code = Javelin.commandLine(out, new PrintWriter(System.err, true)).execute(args);
    out.println("exit=" + code);
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        out.println("peakKb=" + line.replaceAll("[^0-9]", ""));
      }
    }
  }

  @Test
  void createFromAHundredThousandColumnCsvInBoundedMemory() throws Exception {
    Path csv = dir.resolve("wide.csv");
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      for (int c = 0; c < COLUMNS; c++) {
        w.write((c == 0 ? "" : ",") + "c" + c);
      }
      w.write('\n');
      for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLUMNS; c++) {
          w.write((c == 0 ? "" : ",") + (c % 1000 == 7 ? "t" + r : String.valueOf(r * 3 + c)));
        }
        w.write('\n');
      }
    }
    String ds = path("ds");
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        WideCsvTest.class.getName(), "create", ds, "--input", csv.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(output).as(output).contains("exit=0");
    // Reading 8192 rows' worth of vectors per batch took gigabytes for this file; now a batch is
    // sized by bytes. The heap is capped at 512 MB; Arrow's buffers live outside it.
    long peakKb = Long.parseLong(output.replaceAll("(?s).*peakKb=(\\d+).*", "$1"));
    assertThat(peakKb).as(output).isLessThan(1_500_000);

    Result describe = run("describe", ds);
    assertThat(describe.code).as(describe.err).isZero();
    assertThat(describe.out).contains("c99999");
    Result count = run("count", ds);
    assertThat(count.out).as(count.toString()).isEqualTo(ROWS + "\n");
    Result scan = run("scan", ds, "--columns", "c0,c99999,c1007", "--format", "csv", "--limit", "3");
    assertThat(scan.out).as(scan.toString()).isEqualTo("c0,c99999,c1007\n0,99999,t0\n3,100002,t1\n6,100005,t2\n");
  }
}
