package dev.javelin.cli;

import dev.javelin.core.VersionInfo;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code javelin versions}: every version with when, what and how many rows. */
@Command(
    name = "versions",
    header = "List a dataset's versions: number, time, operation, rows.",
    description = {"A version whose manifest cannot be read is listed as unreadable (the reason goes",
        "to stderr); the others are listed all the same.", ""},
    footer = {"", "Example:", "  javelin versions people"})
final class VersionsCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Override
  public Integer call() {
    // Listed without opening the newest version, so a damaged manifest shows as unreadable.
    List<VersionInfo> versions = dataset(uri).versions();
    int w = Math.max("version".length(), String.valueOf(versions.get(versions.size() - 1).version()).length());
    out().printf(Locale.ROOT, "%" + w + "s  %-24s  %-16s  %s%n", "version", "timestamp", "operation", "rows");
    for (VersionInfo v : versions) {
      if (!v.readable()) {
        out().printf(Locale.ROOT, "%" + w + "d  %-24s  %-16s  %s%n", v.version(), "-", VersionInfo.UNREADABLE, "-");
        continue;
      }
      out().printf(Locale.ROOT, "%" + w + "d  %-24s  %-16s  %,d%n", v.version(),
          v.timestamp().map(Object::toString).orElse("-"), v.operation(), v.rowCount());
    }
    for (VersionInfo v : versions) {
      v.problem().ifPresent(p -> err().println(ErrorHandler.PREFIX + "version " + v.version() + " is unreadable: " + p));
    }
    return ExitCodes.OK;
  }
}
