package dev.javelin.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What every subcommand shares: {@code --help}, {@code --verbose}, and the writers that
 * {@link Javelin#commandLine} injects (data to {@link #out()}, chatter to {@link #err()}).
 */
@Command(sortOptions = false, usageHelpAutoWidth = true)
abstract class BaseCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--verbose", description = "On error, print the stack trace too.")
  boolean verbose;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Flushes data written so far, so that chatter on stderr follows it in a terminal. */
  void flushOut() {
    out().flush();
  }
}
