package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's --help renders without picocli's format warnings and keeps its text. */
class HelpTextTest {
  private static void collect(CommandLine c, List<CommandLine> out) {
    out.add(c);
    c.getSubcommands().values().forEach(s -> collect(s, out));
  }

  @Test
  void everyHelpRendersWithoutFormatWarnings() {
    List<CommandLine> all = new ArrayList<>();
    collect(Javelin.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())), all);
    assertThat(all.size()).isGreaterThan(20);
    PrintStream saved = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    // picocli reports a help text it cannot format on System.err, not on the command's writers.
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      for (CommandLine c : all) {
        StringWriter help = new StringWriter();
        c.usage(new PrintWriter(help));
        String name = c.getCommandSpec().qualifiedName();
        assertThat(help.toString()).as(name).doesNotContain("picocli WARN").doesNotContain("%n");
        assertThat(captured.toString(StandardCharsets.UTF_8)).as(name).doesNotContain("picocli WARN");
      }
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void filterHelpShowsItsPercentSigns() {
    CliTestBase.Result r = CliTestBase.run("scan", "--help");
    assertThat(r.out).contains("LIKE 'pre%'  (% any run, _ one character)   + - * / %")
        .contains("LIKE 'A%'\"");
  }
}
