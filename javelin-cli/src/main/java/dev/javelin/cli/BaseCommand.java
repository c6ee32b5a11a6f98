package dev.javelin.cli;

import dev.javelin.common.ProgressListener;
import dev.javelin.core.Dataset;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What every subcommand shares: {@code --help}, {@code --verbose}, {@code --storage-option}, and the writers that
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

  @Option(names = {"-q", "--quiet"},
      description = "Draw no progress bar (none is drawn when stderr is not a terminal).")
  boolean quiet;

  @Option(names = "--storage-option", paramLabel = "KEY=VALUE", mapFallbackValue = "",
      description = "A storage option for s3://, az:// and other remote URIs, with Lance's names "
          + "(aws_region, aws_endpoint, azure_storage_account_name, ...); repeatable. Credentials also "
          + "come from each provider's environment (AWS_ACCESS_KEY_ID, AZURE_STORAGE_ACCOUNT_KEY, ...).")
  Map<String, String> storageOptions = new LinkedHashMap<>();

  /** The newest version of the dataset at {@code uri}, opened with the command's storage options. */
  Dataset openLatest(String uri, BufferAllocator allocator) {
    return Dataset.builder(uri).storageOptions(storageOptions).allocator(allocator).load();
  }

  /** The dataset at {@code uri}, as the command line names it (storage options included). */
  DatasetArgs dataset(String uri) {
    DatasetArgs args = new DatasetArgs();
    args.uri = uri;
    args.storageOptions = storageOptions;
    return args;
  }

  /** A progress bar on stderr for long library work, or nothing when piped or {@code --quiet}. */
  ProgressListener progress() {
    return ProgressBar.forTerminal(err(), quiet);
  }

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
