package dev.javelin.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code javelin} command line: Lance files from Java.
 *
 * <pre>
 * javelin demo
 * javelin file write out.lance --input data.csv
 * javelin file read out.lance --rows 0:10
 * javelin file info out.lance
 * </pre>
 *
 * <p>Exit codes are those of {@link ExitCodes}. Data goes to standard output, messages to standard
 * error; every error is one line {@code javelin: <message>}, with a stack trace only under
 * {@code --verbose}.
 */
@Command(
    name = "javelin",
    mixinStandardHelpOptions = true,
    versionProvider = Javelin.Version.class,
    header = "Lance datasets and files, in pure Java.",
    synopsisSubcommandLabel = "COMMAND",
    usageHelpAutoWidth = true,
    footer = {"", "Start with 'javelin demo' for a tour, or 'javelin COMMAND --help' for the",
        "details of a command."},
    subcommands = {
        CreateCommand.class, AppendCommand.class, OverwriteCommand.class, ScanCommand.class, TakeCommand.class,
        CountCommand.class, DeleteCommand.class, UpdateCommand.class, MergeCommand.class, AddColumnsCommand.class, DropColumnsCommand.class,
        AlterColumnsCommand.class, DescribeCommand.class, VersionsCommand.class, TagCommand.class, RestoreCommand.class,
        CleanupCommand.class, BranchCommand.class, CloneCommand.class, ConfigCommand.class, CompactCommand.class, ClusterCommand.class, LayoutCommand.class, IndexCommand.class,
        SearchCommand.class, FileCommand.class, DemoCommand.class})
public final class Javelin implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--verbose", description = "On error, print the stack trace too.")
  boolean verbose;

  /** Run bare, it shows what it can do, on stderr since nothing was asked for. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.INVALID_INPUT;
  }

  /**
   * The command line, writing data to {@code out} and messages to {@code err}; run it with
   * {@code execute(args)}, which returns an exit code of {@link ExitCodes}. The caller flushes
   * the writers.
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Javelin());
    cl.setOut(out);
    cl.setErr(err);
    ErrorHandler errors = new ErrorHandler();
    cl.setExecutionExceptionHandler(errors);
    cl.setParameterExceptionHandler(errors);
    cl.setExitCodeExceptionMapper(errors);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }

  public static void main(String[] args) {
    // Javelin and Arrow log through SLF4J, bound here to slf4j-simple (warnings to stderr, see
    // simplelogger.properties); SLF4J's notices about its own set-up would be noise.
    if (System.getProperty("slf4j.internal.verbosity") == null) {
      System.setProperty("slf4j.internal.verbosity", "ERROR");
    }
    // Straight to file descriptor 1 rather than through System.out, which swallows write errors:
    // this way a closed pipe (javelin file read big.lance | head) shows in checkError() and the
    // read stops instead of decoding the rest of the file for nobody.
    PrintWriter out = new PrintWriter(new BufferedWriter(
        new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), 1 << 16));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    // A worker thread that runs out of memory fails its task, which the command reports in one
    // line; its own stack trace would only bury that line.
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
      if (!(e instanceof OutOfMemoryError)) {
        e.printStackTrace();
      }
    });
    int code;
    try {
      code = commandLine(out, err).execute(args);
    } catch (OutOfMemoryError e) {
      // picocli passes Errors through; what failed has let go of its memory by now. The command's
      // own cleanup (a partial file, a dataset's new files) ran as the error passed.
      err.println(ErrorHandler.PREFIX + ErrorHandler.outOfMemory(e));
      code = ExitCodes.GENERIC;
    }
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** The version Maven recorded in the jar; "dev" when run from classes. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      String version = "dev";
      try (InputStream in = Javelin.class.getResourceAsStream("/META-INF/maven/dev.javelin/javelin-cli/pom.properties")) {
        if (in != null) {
          Properties p = new Properties();
          p.load(in);
          version = p.getProperty("version", version);
        }
      }
      return new String[] {"javelin " + version + " (Lance file format 2.0, 2.1 and 2.2)"};
    }
  }
}
