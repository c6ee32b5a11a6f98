package dev.javelin.cli;

import dev.javelin.core.CreateIndexResult;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexBuilder;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.IndexOptimizeResult;
import dev.javelin.core.IndexSettleResult;
import dev.javelin.core.OptimizedIndex;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.io.ObjectInfo;
import dev.javelin.index.IvfPqParams;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code javelin index}: create, list, describe, drop, optimize and settle a dataset's indices. */
@Command(
    name = "index",
    header = "Create, list, describe, drop, optimize and settle indices.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {IndexCommand.Create.class, IndexCommand.ListIndices.class, IndexCommand.Describe.class,
        IndexCommand.Drop.class, IndexCommand.Optimize.class, IndexCommand.Settle.class})
final class IndexCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.INVALID_INPUT;
  }

  /** {@code javelin index create}. */
  @Command(name = "create", header = "Build an index over a column from every row and commit it.",
      footer = {"", "Examples:", "  javelin index create people --column id --type btree",
          "  javelin index create people --column name --name by_name --replace"})
  static final class Create extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    @Option(names = "--column", required = true, paramLabel = "COL", description = "The top-level column to index.")
    String column;

    @Option(names = "--type", paramLabel = "TYPE", defaultValue = "btree",
        description = "btree (scalar columns) or ivf_pq (fixed_size_list<float32> vectors); default: ${DEFAULT-VALUE}.")
    String type;

    @Option(names = "--partitions", paramLabel = "N", description = "ivf_pq: IVF partitions (default: sqrt(rows)).")
    Integer partitions;

    @Option(names = "--sub-vectors", paramLabel = "M",
        description = "ivf_pq: PQ sub-vectors, dividing the dimension (default: dim/16, else dim/8).")
    Integer subVectors;

    @Option(names = "--metric", paramLabel = "METRIC", defaultValue = "l2",
        description = "ivf_pq: l2, cosine or dot (default: ${DEFAULT-VALUE}).")
    String metric;

    @Option(names = "--name", paramLabel = "NAME", description = "The index name (default: COL_idx).")
    String name;

    @Option(names = "--replace", description = "Replace an index of the same name.")
    boolean replace;

    @Override
    public Integer call() {
      String kind = type.toLowerCase(Locale.ROOT);
      if (!kind.equals("btree") && !kind.equals("ivf_pq")) {
        throw new InvalidInputException("Unsupported index type '" + type + "': use btree or ivf_pq");
      }
      if (kind.equals("btree") && (partitions != null || subVectors != null)) {
        throw new InvalidInputException("--partitions and --sub-vectors apply to --type ivf_pq only");
      }
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset(uri).open(allocator);
        Columns.check(ds, List.of(column));
        IndexBuilder build = ds.createIndex(column);
        if (kind.equals("btree")) {
          build.btree();
        } else {
          build.ivfPq(vectorParams(this, ds));
        }
        if (name != null) {
          build.name(name);
        }
        if (replace) {
          build.replace();
        }
        CreateIndexResult created = build.commit();
        Dataset next = created.dataset();
        IndexInfo info = created.index();
        err().println("Created index " + info.name() + " (" + kind + " on " + column + ", "
            + count(info.fragments().size()) + "): version " + next.version());
      }
      return ExitCodes.OK;
    }
  }

  private static IvfPqParams vectorParams(Create c, Dataset ds) {
    DistanceType distance;
    try {
      distance = DistanceType.fromName(c.metric.toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("Unknown --metric '" + c.metric + "': use l2, cosine or dot");
    }
    LanceField field = ds.schema().fields().stream()
        .filter(f -> f.name().equals(c.column)).findFirst()
        .orElseThrow(() -> new InvalidInputException("Column '" + c.column + "' is not a top-level column: "
            + "an ivf_pq index needs a top-level vector column"));
    if (!field.isFixedSizeList()) {
      throw new InvalidInputException("Column '" + c.column + "' is " + field.logicalType()
          + ", not a fixed_size_list<float32> vector: an ivf_pq index needs vectors");
    }
    IvfPqParams d =
        IvfPqParams.defaults(ds.countRows(), field.fixedSizeListSize(), distance);
    return IvfPqParams.of(c.partitions != null ? c.partitions : d.numPartitions(),
        c.subVectors != null ? c.subVectors : d.numSubVectors(), distance);
  }

  /** {@code javelin index list}. */
  @Command(name = "list", header = "List the indices of a dataset version.")
  static final class ListIndices extends BaseCommand {
    @Mixin
    DatasetArgs dataset = new DatasetArgs();

    @Override
    public Integer call() {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset.open(allocator);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"name", "type", "columns", "fragments"});
        for (IndexInfo i : ds.indices()) {
          rows.add(new String[] {i.name(), i.type().name().toLowerCase(Locale.ROOT), String.join(",", i.fields()),
              i.fragments().size() + " of " + ds.manifest().fragments().size()});
        }
        if (rows.size() == 1) {
          out().println("(no indices)");
        } else {
          printAligned(out(), rows);
        }
      }
      return ExitCodes.OK;
    }
  }

  // Columns padded to their widest cell, the last one unpadded.
  private static void printAligned(PrintWriter out, List<String[]> rows) {
    int[] width = new int[rows.get(0).length];
    for (String[] r : rows) {
      for (int c = 0; c < r.length; c++) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder b = new StringBuilder();
      for (int c = 0; c < r.length; c++) {
        b.append(c == r.length - 1 ? r[c] : String.format("%-" + width[c] + "s  ", r[c]));
      }
      out.println(b);
    }
  }

  /** {@code javelin index describe}. */
  @Command(name = "describe", header = "Show an index: type, column, fragments covered, files.")
  static final class Describe extends BaseCommand {
    @Mixin
    DatasetArgs dataset = new DatasetArgs();

    @Parameters(index = "1", paramLabel = "NAME", description = "The index name.")
    String name;

    @Override
    public Integer call() throws IOException {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset.open(allocator);
        IndexInfo info = find(ds, name);
        List<Long> uncovered = new ArrayList<>();
        ds.manifest().fragments().forEach(f -> {
          if (!info.fragments().contains(f.id())) {
            uncovered.add(f.id());
          }
        });
        out().println("name       " + info.name());
        out().println("uuid       " + info.uuid());
        out().println("type       " + info.type().name().toLowerCase(Locale.ROOT));
        out().println("columns    " + String.join(",", info.fields()));
        out().println("built at   version " + info.datasetVersion());
        out().println("covered    " + count(info.fragments().size()) + " " + info.fragments());
        out().println("uncovered  " + count(uncovered.size()) + " " + uncovered);
        List<ObjectInfo> files = new ArrayList<>(ds.store().list("_indices/" + info.uuid() + "/"));
        files.sort(Comparator.comparing(ObjectInfo::key));
        long total = 0;
        String label = "files      ";
        for (ObjectInfo f : files) {
          total += f.size();
          out().println(label + f.key() + "  " + f.size() + " bytes");
          label = "           ";
        }
        if (files.isEmpty()) {
          out().println(label + "(missing)");
        }
        out().println("size       " + total + " bytes");
      }
      return ExitCodes.OK;
    }
  }

  /** {@code javelin index drop}. */
  @Command(name = "drop", header = "Drop an index (its files stay until cleanup).")
  static final class Drop extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    @Parameters(index = "1", paramLabel = "NAME", description = "The index name.")
    String name;

    @Override
    public Integer call() {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset(uri).open(allocator);
        find(ds, name);
        Dataset next = ds.dropIndex(name);
        err().println("Dropped index " + name + ": version " + next.version());
      }
      return ExitCodes.OK;
    }
  }

  /** {@code javelin index optimize}. */
  @Command(name = "optimize", header = "Index the fragments appended since each index was built.",
      description = {
        "Per index, the rows of fragments it does not cover yet are added to it, as Lance's",
        "incremental optimize: a vector index keeps its IVF centroids and PQ codebook (the new",
        "rows go into its existing partitions; nothing is retrained or re-partitioned), a BTree",
        "is merged into a new one. Delta indices of one name are merged into one; deleted rows",
        "are dropped. Prints per index what was done; kinds Javelin cannot update are skipped",
        "and say why.",
        ""
      })
  static final class Optimize extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    @Override
    public Integer call() {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset(uri).open(allocator);
        IndexOptimizeResult r = ds.optimizeIndices();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"name", "type", "fragments added", "rows added", "rows dropped", "result"});
        for (OptimizedIndex i : r.indices()) {
          rows.add(new String[] {i.name(), i.type().name().toLowerCase(Locale.ROOT),
              i.fragmentsAdded().size() + " " + i.fragmentsAdded(), Long.toString(i.rowsAdded()),
              Long.toString(i.rowsDropped()), result(i)});
        }
        if (rows.size() == 1) {
          out().println("(no indices)");
        } else {
          printAligned(out(), rows);
        }
        if (r.unchanged()) {
          err().println("Indices are up to date: version " + r.dataset().version());
        } else {
          err().println("Optimized indices: version " + r.dataset().version());
        }
      }
      return ExitCodes.OK;
    }

    private static String result(OptimizedIndex i) {
      String merged = i.entriesReplaced() > 1 ? " (" + i.entriesReplaced() + " delta indices merged into one)" : "";
      return switch (i.outcome()) {
        case MERGED -> (i.type() == IndexType.VECTOR ? "merged into existing partitions" : "merged") + merged;
        case UNCHANGED -> "unchanged (covers every fragment)";
        case SKIPPED -> "skipped: " + i.reason();
      };
    }
  }

  /** {@code javelin index settle}. */
  @Command(name = "settle", header = "Remap indices onto clustered fragments; drop row maps.",
      description = {
        "Indices built before 'javelin cluster' answer for the moved rows through row maps.",
        "This remaps them onto the new fragments, then drops the row maps no index needs,",
        "and the __lance_stable_partition entry with the last: older Lance readers",
        "(lance-core 7.0.0) then see only indices they know. Cleanup removes the row map",
        "files once no kept version needs them.",
        ""
      })
  static final class Settle extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    @Override
    public Integer call() {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset(uri).open(allocator);
        IndexSettleResult r = ds.settleIndices();
        if (r.unchanged()) {
          err().println("Nothing to settle: version " + r.dataset().version());
          return ExitCodes.OK;
        }
        StringBuilder b = new StringBuilder("Settled indices: ");
        b.append(r.remapped().isEmpty() ? "none remapped" : "remapped " + String.join(", ", r.remapped()));
        b.append("; dropped ").append(r.transitionsDropped())
            .append(r.transitionsDropped() == 1 ? " transition" : " transitions");
        if (r.transitionsKept() == 0) {
          b.append(", no row map left");
        } else {
          b.append(", kept ").append(r.transitionsKept()).append(" for indices Javelin cannot remap");
        }
        err().println(b.append(": version ").append(r.dataset().version()));
      }
      return ExitCodes.OK;
    }
  }

  private static IndexInfo find(Dataset ds, String name) {
    for (IndexInfo i : ds.indices()) {
      if (i.name().equals(name)) {
        return i;
      }
    }
    throw new InvalidInputException("No index named '" + name + "' in " + ds.location());
  }

  private static String count(int fragments) {
    return fragments + (fragments == 1 ? " fragment" : " fragments");
  }
}
