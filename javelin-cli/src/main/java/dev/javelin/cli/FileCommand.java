package dev.javelin.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code javelin file}: the commands on single Lance files. */
@Command(
    name = "file",
    header = "Write, read and inspect single Lance files.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {WriteCommand.class, ReadCommand.class, InfoCommand.class})
final class FileCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.INVALID_INPUT;
  }
}
