package dev.javelin.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.javelin.index.IvfParams;
import dev.javelin.index.IvfPqParams;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
          "  javelin index create people --column name --name by_name --replace",
          "  javelin index create events --column country --type bitmap",
          "  javelin index create events --column ts --type zonemap --rows-per-zone 4096",
          "  javelin index create events --column user --type bloomfilter --items 4096",
          "  javelin index create events --column tags --type labellist",
          "  javelin index create events --column title --type ngram",
          "  javelin index create docs --column emb --type ivf_flat --metric cosine"})
  static final class Create extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    @Option(names = "--column", required = true, paramLabel = "COL", description = "The top-level column to index.")
    String column;

    @Option(names = "--type", paramLabel = "TYPE", defaultValue = "btree",
        description = "btree, bitmap (low-cardinality columns), zonemap, bloomfilter (scalar columns), labellist"
            + " (list columns), ngram (string columns: contains, LIKE), ivf_pq, ivf_flat, ivf_sq or ivf_hnsw_sq"
            + " (fixed_size_list<float32> vectors); default: ${DEFAULT-VALUE}.")
    String type;

    @Option(names = "--rows-per-zone", paramLabel = "N",
        description = "zonemap: rows per zone (default: 8192; zones also end at each fragment's end).")
    Long rowsPerZone;

    @Option(names = "--items", paramLabel = "N",
        description = "bloomfilter: rows per zone, the values each zone's filter is sized for (default: 8192).")
    Long items;

    @Option(names = "--probability", paramLabel = "P",
        description = "bloomfilter: the filters' false positive rate, in (0, 1) (default: 0.00057).")
    Double probability;

    @Option(names = "--partitions", paramLabel = "N",
        description = "ivf_pq, ivf_flat, ivf_sq: IVF partitions (default: sqrt(rows)).")
    Integer partitions;

    @Option(names = "--sub-vectors", paramLabel = "M",
        description = "ivf_pq: PQ sub-vectors, dividing the dimension (default: dim/16, else dim/8).")
    Integer subVectors;

    @Option(names = "--metric", paramLabel = "METRIC", defaultValue = "l2",
        description = "ivf_pq, ivf_flat, ivf_sq: l2, cosine or dot (default: ${DEFAULT-VALUE}).")
    String metric;

    @Option(names = "--m", paramLabel = "M",
        description = "ivf_hnsw_sq: graph neighbours per node, twice that on the bottom level (default: 20).")
    Integer m;

    @Option(names = "--ef-construction", paramLabel = "N",
        description = "ivf_hnsw_sq: the graph build's search width (default: 150).")
    Integer efConstruction;

    @Option(names = "--name", paramLabel = "NAME", description = "The index name (default: COL_idx).")
    String name;

    @Option(names = "--replace", description = "Replace an index of the same name.")
    boolean replace;

    @Override
    public Integer call() {
      String kind = type.toLowerCase(Locale.ROOT).replace("_", "");
      if (!List.of("btree", "bitmap", "zonemap", "bloomfilter", "labellist", "ngram", "ivfpq", "ivfflat", "ivfsq",
          "ivfhnswsq").contains(kind)) {
        throw new InvalidInputException("Unsupported index type '" + type + "': use btree, bitmap, zonemap, "
            + "bloomfilter, labellist, ngram, ivf_pq, ivf_flat, ivf_sq or ivf_hnsw_sq");
      }
      kind = kind.equals("ivfhnswsq") ? "ivf_hnsw_sq" : kind.startsWith("ivf") ? "ivf_" + kind.substring(3) : kind;
      if (!kind.equals("ivf_hnsw_sq") && (m != null || efConstruction != null)) {
        throw new InvalidInputException("--m and --ef-construction apply to --type ivf_hnsw_sq only");
      }
      if (!kind.startsWith("ivf_") && partitions != null) {
        throw new InvalidInputException("--partitions applies to --type ivf_pq, ivf_flat and ivf_sq only");
      }
      if (!kind.equals("ivf_pq") && subVectors != null) {
        throw new InvalidInputException("--sub-vectors applies to --type ivf_pq only");
      }
      if (!kind.equals("zonemap") && rowsPerZone != null) {
        throw new InvalidInputException("--rows-per-zone applies to --type zonemap only");
      }
      if (!kind.equals("bloomfilter") && (items != null || probability != null)) {
        throw new InvalidInputException("--items and --probability apply to --type bloomfilter only");
      }
      if (rowsPerZone != null && rowsPerZone <= 0) {
        throw new InvalidInputException("--rows-per-zone must be positive: " + rowsPerZone);
      }
      if (items != null && items <= 0) {
        throw new InvalidInputException("--items must be positive: " + items);
      }
      if (probability != null && !(probability > 0 && probability < 1)) {
        throw new InvalidInputException("--probability must be between 0 and 1: " + probability);
      }
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset(uri).open(allocator);
        Columns.check(ds, List.of(column));
        IndexBuilder build = ds.createIndex(column).progress(progress());
        switch (kind) {
          case "btree" -> build.btree();
          case "bitmap" -> build.bitmap();
          case "labellist" -> build.labelList();
          case "ngram" -> build.ngram();
          case "zonemap" -> {
            if (rowsPerZone == null) {
              build.zonemap();
            } else {
              build.zonemap(rowsPerZone);
            }
          }
          case "bloomfilter" -> {
            if (items == null && probability == null) {
              build.bloomFilter();
            } else {
              build.bloomFilter(items == null ? 8192 : items, probability == null ? 0.00057 : probability);
            }
          }
          case "ivf_flat", "ivf_sq", "ivf_hnsw_sq" -> {
            IvfPqParams d = vectorParams(this, ds);
            IvfParams p = IvfParams.of(d.numPartitions(), d.distanceType());
            if (kind.equals("ivf_flat")) {
              build.ivfFlat(p);
            } else if (kind.equals("ivf_sq")) {
              build.ivfSq(p);
            } else {
              try {
                build.ivfHnswSq(p, m == null ? 20 : m, efConstruction == null ? 150 : efConstruction);
              } catch (IllegalArgumentException e) {
                throw new InvalidInputException(e.getMessage());
              }
            }
          }
          default -> build.ivfPq(vectorParams(this, ds));
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
            + "an " + c.type + " index needs a top-level vector column"));
    if (!field.isFixedSizeList()) {
      throw new InvalidInputException("Column '" + c.column + "' is " + field.logicalType()
          + ", not a fixed_size_list<float32> vector: an " + c.type + " index needs vectors");
    }
    IvfPqParams d =
        IvfPqParams.defaults(ds.countRows(), field.fixedSizeListSize(), distance);
    return IvfPqParams.of(c.partitions != null ? c.partitions : d.numPartitions(),
        c.subVectors != null ? c.subVectors : d.numSubVectors(), distance);
  }

  /** {@code javelin index list}. */
  @Command(name = "list", header = "List the indices of a dataset version, and its system entries.",
      description = {
        "Per index: its type by Lance's name (BTREE, BITMAP, INVERTED, IVF_PQ,",
        "IVF_HNSW_SQ, ...), its columns, and the live fragments it answers for, out of",
        "all: directly, or through the row maps of a 'javelin cluster', as in",
        "\"4 of 4 (3 through row maps)\". System entries (clustering's transitions, a",
        "compaction's fragment reuse) are listed apart: queries do not use them.",
        ""
      },
      footer = {"", "Examples:", "  javelin index list people", "  javelin index list people --json"})
  static final class ListIndices extends BaseCommand {
    @Mixin
    DatasetArgs dataset = new DatasetArgs();

    @Option(names = "--json", description = "Print JSON instead (see docs/cli-json.md).")
    boolean json;

    @Override
    public Integer call() {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset.open(allocator);
        List<IndexListing.Entry> entries = IndexListing.of(ds, allocator);
        if (json) {
          JsonOutput.print(out(), IndexListing.json(entries));
          return ExitCodes.OK;
        }
        TextTable indices = new TextTable("name", "type", "columns", "fragments");
        TextTable system = new TextTable("system entry", "what it is");
        for (IndexListing.Entry e : entries) {
          if (e.system()) {
            system.row(e.name(), e.description());
          } else {
            indices.row(e.name(), e.kind(), String.join(",", e.columns()), e.coverage());
          }
        }
        if (indices.isEmpty()) {
          out().println("(no indices)");
        } else {
          indices.print(out());
        }
        if (!system.isEmpty()) {
          out().println();
          system.print(out());
        }
      }
      return ExitCodes.OK;
    }
  }

  /** {@code javelin index describe}. */
  @Command(name = "describe", header = "Show an index: type, column, fragments covered, files.",
      footer = {"", "Examples:", "  javelin index describe people id_idx",
          "  javelin index describe people id_idx --json"})
  static final class Describe extends BaseCommand {
    @Mixin
    DatasetArgs dataset = new DatasetArgs();

    @Parameters(index = "1", paramLabel = "NAME", description = "The index name.")
    String name;

    @Option(names = "--json", description = "Print JSON instead (see docs/cli-json.md).")
    boolean json;

    @Override
    public Integer call() throws IOException {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset.open(allocator);
        IndexListing.Entry e = null;
        for (IndexListing.Entry candidate : IndexListing.of(ds, allocator)) {
          if (candidate.name().equals(name)) {
            e = candidate;
          }
        }
        if (e == null) {
          throw new InvalidInputException("No index named '" + name + "' in " + ds.location());
        }
        List<ObjectInfo> files = new ArrayList<>(ds.store().list("_indices/" + e.metadata().uuid() + "/"));
        files.sort(Comparator.comparing(ObjectInfo::key));
        long total = 0;
        for (ObjectInfo f : files) {
          total += f.size();
        }
        if (json) {
          ObjectNode o = IndexListing.json(e);
          ArrayNode fs = o.putArray("files");
          for (ObjectInfo f : files) {
            fs.addObject().put("path", f.key()).put("size_bytes", f.size());
          }
          o.put("size_bytes", total);
          JsonOutput.print(out(), o);
          return ExitCodes.OK;
        }
        out().println("name       " + e.name());
        out().println("uuid       " + e.metadata().uuid());
        out().println("type       " + (e.system() ? e.description() : e.kind()));
        out().println("columns    " + String.join(",", e.columns()));
        out().println("built at   version " + Long.toUnsignedString(e.metadata().datasetVersion()));
        if (!e.system()) {
          out().println("answers    " + e.coverage() + " live fragments");
          out().println("direct     " + Formats.count(e.direct().size(), "fragment") + " " + e.direct());
          if (!e.throughRowMaps().isEmpty()) {
            out().println("row maps   " + Formats.count(e.throughRowMaps().size(), "fragment") + " "
                + e.throughRowMaps());
          }
          out().println("uncovered  " + Formats.count(e.unindexed().size(), "fragment") + " " + e.unindexed());
        }
        String label = "files      ";
        for (ObjectInfo f : files) {
          out().println(label + f.key() + "  " + Formats.size(f.size()));
          label = "           ";
        }
        if (files.isEmpty()) {
          out().println(label + "(missing)");
        }
        out().println("size       " + Formats.size(total) + " (" + Formats.count(total, "byte") + ")");
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
        "Per index, the rows of fragments it does not cover yet are added to it, as",
        "Lance's incremental optimize: a vector index keeps its IVF centroids and PQ",
        "codebook (the new rows go into its existing partitions; nothing is retrained",
        "or re-partitioned), a BTree is merged into a new one. Delta indices of one",
        "name are merged into one; deleted rows are dropped. Prints per index what was",
        "done; kinds Javelin cannot update are skipped and say why.",
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
        Map<String, String> kinds = new HashMap<>();
        for (IndexListing.Entry e : IndexListing.of(r.dataset(), allocator)) {
          kinds.put(e.name(), e.kind());
        }
        TextTable table = new TextTable("name", "type", "fragments added", ">rows added", ">rows dropped", "result");
        for (OptimizedIndex i : r.indices()) {
          table.row(i.name(), kinds.getOrDefault(i.name(), i.type().name()),
              i.fragmentsAdded().size() + " " + i.fragmentsAdded(), Formats.number(i.rowsAdded()),
              Formats.number(i.rowsDropped()), result(i));
        }
        if (table.isEmpty()) {
          out().println("(no indices)");
        } else {
          table.print(out());
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
        "Indices built before 'javelin cluster' answer for the moved rows through row",
        "maps. This remaps them onto the new fragments, then drops the row maps no",
        "index needs, and the __lance_stable_partition entry with the last: older Lance",
        "readers (lance-core 7.0.0) then see only indices they know. Cleanup removes",
        "the row map files once no kept version needs them.",
        ""
      })
  static final class Settle extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    @Override
    public Integer call() {
      try (BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = dataset(uri).open(allocator);
        IndexSettleResult r = ds.settleIndices(progress());
        if (r.unchanged()) {
          err().println("Nothing to settle: version " + r.dataset().version());
          return ExitCodes.OK;
        }
        StringBuilder b = new StringBuilder("Settled indices: ");
        b.append(r.remapped().isEmpty() ? "none remapped" : "remapped " + String.join(", ", r.remapped()));
        b.append("; dropped ").append(Formats.count(r.transitionsDropped(), "transition"));
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
    return Formats.count(fragments, "fragment");
  }
}
