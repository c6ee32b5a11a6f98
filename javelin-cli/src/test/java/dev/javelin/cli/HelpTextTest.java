package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every command's and subcommand's --help (the whole picocli command tree) renders at 80 columns
 * without picocli's format warnings (a bare '%' in a text), with no line wider than 80 columns,
 * and with no header, description or footer line (examples above all) that picocli would have to
 * wrap, which cuts an example mid-argument.
 */
class HelpTextTest {
  static final int WIDTH = 80;

  private static void collect(CommandLine c, List<CommandLine> out) {
    out.add(c);
    c.getSubcommands().values().forEach(s -> collect(s, out));
  }

  private static List<CommandLine> everyCommand() {
    List<CommandLine> all = new ArrayList<>();
    collect(Javelin.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())), all);
    return all;
  }

  @Test
  void walksTheWholeCommandTree() {
    List<String> names = new ArrayList<>();
    everyCommand().forEach(c -> names.add(c.getCommandSpec().qualifiedName()));
    assertThat(names).contains("javelin", "javelin scan", "javelin index list", "javelin tag create",
        "javelin file info", "javelin branch delete", "javelin demo").hasSizeGreaterThan(35);
  }

  @Test
  void everyHelpRendersWithoutWarningsWithinEightyColumns() {
    List<String> problems = new ArrayList<>();
    PrintStream saved = System.err;
    for (CommandLine c : everyCommand()) {
      String name = c.getCommandSpec().qualifiedName();
      c.getCommandSpec().usageMessage().autoWidth(false).width(WIDTH);
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      // picocli reports a text it cannot format on System.err, not on the command's writers.
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      StringWriter help = new StringWriter();
      try {
        c.usage(new PrintWriter(help));
      } finally {
        System.setErr(saved);
      }
      String warnings = captured.toString(StandardCharsets.UTF_8) + help;
      if (warnings.contains("picocli WARN")) {
        problems.add(name + ": picocli warns: "
            + warnings.substring(warnings.indexOf("picocli WARN")).lines().findFirst().orElse(""));
      }
      if (help.toString().contains("%n")) {
        problems.add(name + ": a literal %n in the help");
      }
      for (String line : help.toString().split("\\R")) {
        if (DisplayWidth.of(line) > WIDTH) {
          problems.add(name + ": a line of " + DisplayWidth.of(line) + " columns: " + line);
        }
      }
      CommandSpec spec = c.getCommandSpec();
      texts(problems, name + " header", spec.usageMessage().header());
      texts(problems, name + " description", spec.usageMessage().description());
      texts(problems, name + " footer", spec.usageMessage().footer());
    }
    assertThat(problems).as(String.join("\n", problems)).isEmpty();
  }

  // Text lines are shown as written: each must format and fit in the width, or picocli wraps it.
  private static void texts(List<String> problems, String where, String[] lines) {
    for (String raw : lines) {
      String text = format(problems, where, raw);
      if (text == null) {
        continue;
      }
      for (String line : text.split("\\R")) {
        if (DisplayWidth.of(line) > WIDTH) {
          problems.add(where + ": wider than " + WIDTH + " columns, so picocli wraps it: " + line);
        }
      }
    }
  }

  // What picocli prints for a header, description or footer line: the line through String.format
  // (so a literal % is written %%; option descriptions are printed as written).
  private static String format(List<String> problems, String where, String raw) {
    try {
      return String.format(Locale.ROOT, raw);
    } catch (IllegalFormatException e) {
      problems.add(where + ": a bare '%' (write %%): " + raw);
      return null;
    }
  }

  @Test
  void filterHelpShowsItsPercentSigns() {
    CliTestBase.Result r = CliTestBase.run("delete", "--help");
    assertThat(r.out).contains("LIKE 'pre%'  (% any run, _ one character)   + - * / %");
  }
}
