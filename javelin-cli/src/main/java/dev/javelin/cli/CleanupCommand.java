package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import java.time.Duration;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code javelin cleanup}: old versions and the files only they used, removed. */
@Command(
    name = "cleanup",
    header = "Remove old versions and every file no kept version uses.",
    description = {
      "The newest version and tagged versions are always kept. Files that no version",
      "references are removed only once older than the grace period (they may belong",
      "to a commit in flight), unless --delete-unverified.",
      ""
    },
    footer = {"", "Examples:", "  javelin cleanup people --older-than 30d", "  javelin cleanup people --retain 5",
        "  javelin cleanup people --before-version 12"})
final class CleanupCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Option(names = "--older-than", paramLabel = "AGE", converter = AgeConverter.class,
      description = "Remove versions committed longer ago than AGE: 90s, 30m, 12h, 7d.")
  Duration olderThan;

  @Option(names = "--before-version", paramLabel = "VERSION", description = "Remove versions before VERSION.")
  Long beforeVersion;

  @Option(names = "--retain", paramLabel = "N", description = "Keep the newest N versions.")
  Integer retain;

  @Option(names = "--delete-unverified", description = "Also remove unreferenced files younger than the grace period.")
  boolean deleteUnverified;

  @Override
  public Integer call() {
    if (olderThan == null && beforeVersion == null && retain == null) {
      throw new InvalidInputException("Say which versions to remove: --older-than, --before-version or --retain");
    }
    CleanupPolicy.Builder policy = CleanupPolicy.builder().deleteUnverified(deleteUnverified);
    if (olderThan != null) {
      policy.olderThan(olderThan);
    }
    if (beforeVersion != null) {
      policy.beforeVersion(beforeVersion);
    }
    if (retain != null) {
      policy.retainVersions(retain);
    }
    DatasetArgs args = new DatasetArgs();
    args.uri = uri;
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = args.open(allocator);
      CleanupResult r = ds.cleanup(policy.build());
      err().printf(Locale.ROOT, "Removed %d %s, %d data %s, %d deletion %s, %d transaction %s, %d %s (%,d bytes) "
          + "from %s%n", r.manifestsRemoved(), r.manifestsRemoved() == 1 ? "version" : "versions",
          r.dataFilesRemoved(), files(r.dataFilesRemoved()), r.deletionFilesRemoved(), files(r.deletionFilesRemoved()),
          r.transactionFilesRemoved(), files(r.transactionFilesRemoved()), r.indicesRemoved(),
          r.indicesRemoved() == 1 ? "index" : "indices", r.bytesRemoved(), uri);
    }
    return ExitCodes.OK;
  }

  private static String files(long n) {
    return n == 1 ? "file" : "files";
  }

  /** Parses 90s, 30m, 12h, 7d. */
  static final class AgeConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([smhd])").matcher(value.trim());
      if (!m.matches()) {
        throw new TypeConversionException("Not an age like 90s, 30m, 12h or 7d: '" + value + "'");
      }
      long n = Long.parseLong(m.group(1));
      switch (m.group(2)) {
        case "s":
          return Duration.ofSeconds(n);
        case "m":
          return Duration.ofMinutes(n);
        case "h":
          return Duration.ofHours(n);
        default:
          return Duration.ofDays(n);
      }
    }
  }
}
