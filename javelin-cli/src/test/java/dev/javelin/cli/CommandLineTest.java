package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandLineTest extends CliTestBase {
  @Test
  void bareRunPrintsUsageOnStderr() {
    Result r = run();
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.out).isEmpty();
    assertThat(r.err).startsWith("Lance datasets and files, in pure Java.\n"
        + "Usage: javelin [-hV] [--verbose] COMMAND\n");
    assertThat(r.err).contains("\n  create         Create a dataset from Parquet, JSON Lines, Arrow IPC or CSV.\n")
        .contains("\n  file           Write, read and inspect single Lance files.\n  demo           A 30-second tour");
  }

  @Test
  void helpGoesToStdout() {
    Result r = run("--help");
    assertThat(r.code).isEqualTo(ExitCodes.OK);
    assertThat(r.err).isEmpty();
    assertThat(r.out).startsWith("Lance datasets and files, in pure Java.\nUsage: javelin");

    r = run("file", "write", "--help");
    assertThat(r.code).isEqualTo(ExitCodes.OK);
    assertThat(r.out).startsWith("Write a Lance file from Parquet, JSON Lines, Arrow IPC or CSV.\n"
        + "Usage: javelin file write [-fhq] [--verbose] [--delimiter=CHAR]");
    assertThat(r.out).contains("  NAME:TYPE[?],NAME:TYPE[?],...     e.g. id:int64,name:utf8?,score:float64?\n");
  }

  @Test
  void version() {
    Result r = run("--version");
    assertThat(r.code).isEqualTo(ExitCodes.OK);
    assertThat(r.out).matches("javelin \\S+ \\(Lance file format 2\\.0, 2\\.1 and 2\\.2\\)\n");
  }

  @Test
  void fileGroupRunBarePrintsItsUsage() {
    Result r = run("file");
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.out).isEmpty();
    assertThat(r.err).isEqualTo("Write, read and inspect single Lance files.\n"
        + "Usage: javelin file [-h] COMMAND\n"
        + "  -h, --help   Show this help and exit.\n"
        + "Commands:\n"
        + "  write  Write a Lance file from Parquet, JSON Lines, Arrow IPC or CSV.\n"
        + "  read   Print rows (table, JSON lines, CSV) or write Arrow or Parquet.\n"
        + "  info   Show a file's version, rows, schema and column pages.\n");
  }

  @Test
  void unknownCommandOrOption() {
    Result r = run("fiel");
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: Unmatched argument at index 0: 'fiel'\n"
        + "Did you mean: javelin file or javelin config?\n"
        + "Try 'javelin --help' for more information.\n");
    r = run("--bogus");
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: Unknown option: '--bogus'\nTry 'javelin --help' for more information.\n");
  }

  @Test
  void everyCommandHasAOneLineHeader() {
    CommandLine root = Javelin.commandLine(new java.io.PrintWriter(new java.io.StringWriter()),
        new java.io.PrintWriter(new java.io.StringWriter()));
    assertHeaders(root);
  }

  private static void assertHeaders(CommandLine cmd) {
    String[] header = cmd.getCommandSpec().usageMessage().header();
    assertThat(header).as(cmd.getCommandSpec().qualifiedName()).hasSize(1);
    // Short enough to fit on one line of the parent's command list.
    assertThat(header[0].length()).as(cmd.getCommandSpec().qualifiedName()).isLessThanOrEqualTo(62);
    cmd.getSubcommands().values().forEach(CommandLineTest::assertHeaders);
  }

  @Test
  void exceptionsMapToExitCodes() {
    ErrorHandler h = new ErrorHandler();
    assertThat(h.getExitCode(new InvalidInputException("x"))).isEqualTo(2);
    assertThat(h.getExitCode(new dev.javelin.format.exceptions.CorruptFileException("f", "x"))).isEqualTo(2);
    assertThat(h.getExitCode(new IllegalArgumentException("x"))).isEqualTo(2);
    assertThat(h.getExitCode(new java.nio.file.NoSuchFileException("f"))).isEqualTo(2);
    assertThat(h.getExitCode(new java.io.IOException("disk full"))).isEqualTo(1);
    assertThat(h.getExitCode(new java.io.UncheckedIOException(new java.io.IOException("x")))).isEqualTo(1);
    assertThat(h.getExitCode(new NullPointerException())).isEqualTo(70);
    assertThat(ErrorHandler.message(new java.nio.file.AccessDeniedException("/x"))).isEqualTo("Permission denied: /x");
    assertThat(ErrorHandler.message(new IllegalStateException("one\ntwo"))).isEqualTo("one");
  }
}
