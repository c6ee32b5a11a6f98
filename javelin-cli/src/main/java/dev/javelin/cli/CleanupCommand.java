package dev.javelin.cli;

import dev.javelin.table.Cleanup;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
      "the store's .tmp-* staging files) may belong to a write still in flight, so",
      "they are removed only once older than the grace period (7 days unless",
      "--grace-period), or at any age with --delete-unverified, which is safe only",
      "while no other process writes to the dataset. Files written after the oldest",
      "kept version are never removed. The summary says what was freed, and when",
      "less than asked, why (the tags that keep versions, files waiting for the grace",
      "period).",
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
    CleanupPolicy.Builder policy = CleanupPolicy.builder().deleteUnverified(deleteUnverified).progress(progress());
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
    long oldestKept = args.versions().get(0).version();
    for (String line : report(r, p, oldestKept, uri)) {
      err().println(line);
    }
    return ExitCodes.OK;
  }

  /**
   * What the cleanup did, and when it freed less than asked, why: versions tags keep (named), files
   * still used by kept versions, unreferenced files waiting for the grace period (and the options
   * that change that).
   */
  static List<String> report(CleanupResult r, CleanupPolicy p, long oldestKept, String uri) {
    List<String> lines = new ArrayList<>();
    lines.add("Removed " + Formats.count(r.manifestsRemoved(), "version") + ", "
        + Formats.count(r.dataFilesRemoved(), "data file") + ", "
        + Formats.count(r.deletionFilesRemoved(), "deletion file") + ", "
        + Formats.count(r.transactionFilesRemoved(), "transaction file") + ", "
        + Formats.count(r.indicesRemoved(), "index", "indices") + ", "
        + Formats.count(r.temporaryFilesRemoved(), "temporary file") + ": freed " + Formats.size(r.bytesRemoved())
        + " from " + uri);
    String tags = tags(r.taggedVersionsKept());
    if (r.manifestsRemoved() == 0) {
      lines.add("No version was removed: none older than the newest matched the policy"
          + (tags.isEmpty() ? "" : " except tagged ones, which are kept (" + tags + ")") + ".");
    } else if (r.dataFilesRemoved() == 0) {
      lines.add("No data file was freed: the removed versions' data files are all used by versions kept"
          + (tags.isEmpty() ? "" : ", among them tagged ones (" + tags + ")") + ".");
    } else if (!tags.isEmpty()) {
      lines.add("Tagged versions were kept with their files (" + tags + ").");
    }
    if (!tags.isEmpty()) {
      lines.add("A tagged version keeps every file it uses; 'javelin tag delete " + uri
          + " NAME' lets a later cleanup remove it.");
    }
    if (r.unreferencedFilesKept() > 0) {
      lines.add("Kept " + Formats.count(r.unreferencedFilesKept(), "unreferenced file") + " ("
          + Formats.size(r.unreferencedBytesKept()) + ") that no version uses: left by failed or killed writes, or by "
          + "a write still in progress, such a file stays while younger than the grace period ("
          + Formats.duration(p.gracePeriod()) + ") or newer than the oldest kept version ("
          + Long.toUnsignedString(oldestKept) + ").");
      if (!p.deleteUnverified()) {
        lines.add("To remove them sooner: --grace-period AGE (e.g. --grace-period 1h) removes those older than AGE; "
            + "--delete-unverified removes them at any age, safe only while no other process writes to the "
            + "dataset.");
      }
    }
    return lines;
  }

  // "before-import = version 3, nightly = version 7"
  private static String tags(Map<String, Long> tagged) {
    List<String> out = new ArrayList<>();
    tagged.forEach((name, v) -> out.add("'" + name + "' = version " + Long.toUnsignedString(v)));
    return String.join(", ", out);
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
