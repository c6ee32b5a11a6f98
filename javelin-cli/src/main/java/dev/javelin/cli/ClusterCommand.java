package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.cluster.ClusterBuilder;
import dev.javelin.core.cluster.ClusterResult;
import dev.javelin.core.cluster.Curve;
import dev.javelin.core.exceptions.ClusterException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code javelin cluster}: reorder rows by key columns (a reordered rewrite), indices kept answering. */
@Command(
    name = "cluster",
    header = "Reorder rows by key columns; indices keep answering.",
    description = {
      "Rewrites the fragments so rows with close keys share fragments (filtered scans",
      "then skip more): each new fragment gets a range of keys, its rows in their old",
      "order. It commits two versions: one reserves the new fragment ids, the next",
      "moves the rows. Indices built before keep answering for the moved rows through",
      "the rewrite's row map; 'javelin index settle' remaps them onto the new",
      "fragments.",
      ""
    },
    footer = {"", "Examples:", "  javelin cluster people --by city",
        "  javelin cluster people --by lat,lon --curve hilbert \\",
        "      --target-rows-per-fragment 100000",
        "  javelin cluster people --by id --fragments 3,4"})
final class ClusterCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Option(names = "--by", required = true, split = ",", paramLabel = "COL",
      description = "Key columns, most significant first (comma-separated).")
  List<String> by;

  @Option(names = "--curve", paramLabel = "CURVE",
      description = "range, zorder or hilbert (default: range for one column, zorder for several).")
  String curve;

  @Option(names = "--target-rows-per-fragment", paramLabel = "N",
      description = "Rows per new fragment (default: " + ClusterBuilder.DEFAULT_TARGET_ROWS_PER_FRAGMENT + ").")
  Long targetRows;

  @Option(names = "--fragments", split = ",", paramLabel = "ID",
      description = "The fragments to rewrite (default: all), comma-separated ids.")
  List<Long> fragments;

  @Option(names = "--rows-per-zone", paramLabel = "N",
      description = "Rows per zone of the zone maps built on the key columns (default: "
          + ClusterBuilder.DEFAULT_ROWS_PER_ZONE + ").")
  Long rowsPerZone;

  @Option(names = "--no-zone-maps", description = "Build no zone maps on the key columns after clustering.")
  boolean noZoneMaps;

  @Override
  public Integer call() {
    DatasetArgs args = dataset(uri);
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = args.open(allocator);
      Columns.check(ds, by);
      ClusterBuilder b = ds.cluster().by(by).progress(progress());
      if (curve != null) {
        b.curve(curve(curve));
      }
      if (targetRows != null) {
        if (targetRows < 1) {
          throw new InvalidInputException("--target-rows-per-fragment must be at least 1, got " + targetRows);
        }
        b.targetRowsPerFragment(targetRows);
      }
      if (fragments != null) {
        b.fragments(fragments);
      }
      if (noZoneMaps && rowsPerZone != null) {
        throw new InvalidInputException("--rows-per-zone and --no-zone-maps exclude each other");
      }
      if (noZoneMaps) {
        b.noZoneMaps();
      } else if (rowsPerZone != null) {
        if (rowsPerZone < 1) {
          throw new InvalidInputException("--rows-per-zone must be at least 1, got " + rowsPerZone);
        }
        b.zoneMapRowsPerZone(rowsPerZone);
      }
      ClusterResult r;
      try {
        r = b.commit();
      } catch (ClusterException e) {
        throw new InvalidInputException(e.getMessage());
      }
      Dataset next = r.dataset();
      // A clustering commits twice (ReserveFragments, then the Rewrite): say so, or the version
      // number seems to skip one.
      long clustered = r.clusteredVersion();
      long committed = clustered - ds.version();
      String reserved = committed == 2 ? " (" + (clustered - 1) + " reserved the new fragment ids)" : "";
      err().println("Clustered fragments " + r.sourceIds() + " by " + String.join(",", by) + " into "
          + r.destinationIds() + " (" + Formats.count(r.rowsMoved(), "row") + " moved): version " + clustered
          + reserved);
      if (!r.zoneMaps().isEmpty()) {
        err().println("Zone maps on the keys: " + String.join(", ", r.zoneMaps()) + ": version " + next.version());
      }
      List<String> through = new ArrayList<>();
      for (IndexInfo i : next.indices()) {
        if (!i.throughRowMaps().isEmpty()) {
          through.add(i.name());
        }
      }
      if (!through.isEmpty()) {
        err().println("Answering through row maps: " + String.join(", ", through)
            + " ('javelin index settle' remaps them)");
      }
    }
    return ExitCodes.OK;
  }

  private static Curve curve(String name) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "range":
        return Curve.RANGE;
      case "zorder":
        return Curve.ZORDER;
      case "hilbert":
        return Curve.HILBERT;
      default:
        throw new InvalidInputException("--curve must be range, zorder or hilbert, got '" + name + "'");
    }
  }
}
