package dev.javelin.cli;

import dev.javelin.table.Cleanup;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
      "The newest version and tagged versions are always kept, and so is every file a",
      "kept version uses. Files that only removed versions used are removed at once.",
      "Files that no version references (left by a failed or killed write, including",
      "the store's .tmp-* staging files) may belong to a write still in flight, so they",
      "are removed only once older than the grace period (7 days unless --grace-period),",
      "or at any age with --delete-unverified, which is safe only while no other process",
      "writes to the dataset. Files written after the oldest kept version are never removed.",
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

  @Option(names = "--delete-unverified",
      description = "Also remove unreferenced files younger than the grace period (only while no one else writes).")
  boolean deleteUnverified;

  @Option(names = "--grace-period", paramLabel = "AGE", converter = AgeConverter.class,
      description = "How old an unreferenced file must be to be removed: 90s, 30m, 12h, 7d (default 7d).")
  Duration gracePeriod;

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
      if (beforeVersion < 1) {
        // Versions are unsigned: -5 would mean "below 2^64 - 5", i.e. every old version.
        throw new InvalidInputException("--before-version must be at least 1, got " + beforeVersion);
      }
      policy.beforeVersion(beforeVersion);
    }
    if (retain != null) {
      policy.retainVersions(retain);
    }
    if (gracePeriod != null) {
      policy.gracePeriod(gracePeriod);
    }
    CleanupPolicy p = policy.build();
    DatasetArgs args = dataset(uri);
    // Run on the table, not on an opened newest version: the cleanup reads every version itself
    // and says which one it cannot read.
    CleanupResult r = Cleanup.run(args.table(), p);
    err().printf(Locale.ROOT, "Removed %d %s, %d data %s, %d deletion %s, %d transaction %s, %d %s, "
        + "%d temporary %s (%,d bytes) from %s%n", r.manifestsRemoved(), r.manifestsRemoved() == 1 ? "version" : "versions",
        r.dataFilesRemoved(), files(r.dataFilesRemoved()), r.deletionFilesRemoved(), files(r.deletionFilesRemoved()),
        r.transactionFilesRemoved(), files(r.transactionFilesRemoved()), r.indicesRemoved(),
        r.indicesRemoved() == 1 ? "index" : "indices", r.temporaryFilesRemoved(), files(r.temporaryFilesRemoved()),
        r.bytesRemoved(), uri);
    boolean nothingFreed = r.bytesRemoved() == 0 && r.manifestsRemoved() == 0;
    if (nothingFreed) {
      err().println("Nothing was freed: no version matched the policy (the newest and tagged versions are always "
          + "kept)" + (r.unreferencedFilesKept() > 0 ? "" : " and no file was left unreferenced") + ".");
    }
    if (r.unreferencedFilesKept() > 0) {
      err().printf(Locale.ROOT, "Kept %,d unreferenced %s (%,d bytes): a write in progress may own them, as they are "
          + "younger than the grace period (%s) or newer than the oldest kept version.%n", r.unreferencedFilesKept(),
          files(r.unreferencedFilesKept()), r.unreferencedBytesKept(), age(p.gracePeriod()));
    }
    if (nothingFreed || (r.unreferencedFilesKept() > 0 && !deleteUnverified)) {
      err().printf(Locale.ROOT, "Unreferenced files (from failed or killed writes) are removed once older than the "
          + "grace period (%s; --grace-period AGE changes it); --delete-unverified removes them at any age, which is "
          + "safe only while no other process writes to the dataset.%n", age(p.gracePeriod()));
    }
    return ExitCodes.OK;
  }

  private static String age(Duration d) {
    long s = d.getSeconds();
    if (s % 86400 == 0) {
      return s / 86400 + "d";
    }
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    return s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  private static String files(long n) {
    return n == 1 ? "file" : "files";
  }

  /** Parses 90s, 30m, 12h, 7d. */
  static final class AgeConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Matcher m = Pattern.compile("(\\d+)([smhd])").matcher(value.trim());
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
