package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorQuery;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.VectorIndexException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin search}: the rows nearest a query vector. */
@Command(
    name = "search",
    header = "Find the rows whose vectors are nearest a query vector.",
    description = {"Uses the column's IVF_PQ, IVF_FLAT, IVF_SQ or IVF_HNSW_SQ index when there",
        "is one (fragments it does not cover are searched exactly), else an exact",
        "search. Rows come nearest first, with a _distance column. The index search",
        "probes --nprobes partitions, then more (nearest first, up to --max-nprobes)",
        "while fewer than k rows are found, so a selective --prefilter still gets k",
        "rows.",
        "",
        "_distance: as in lance-core, when a PQ or SQ index covers every fragment and",
        "no --refine-factor is given, rows are ranked by and shown with their",
        "approximate (code) distance; IVF_FLAT's are true distances. With",
        "--refine-factor, when some fragments are searched exactly (the index's",
        "candidates are then re-ranked by their true vectors), and without an index,",
        "it is the true distance. The arrow output's _distance field metadata says",
        "which (javelin:distance = approximate or exact), and a note on standard",
        "error says when it is approximate.",
        "Vector indices of kinds Javelin cannot read yet (IVF_RQ, IVF_HNSW_PQ, 4-bit",
        "IVF_PQ) do not fail a search: their fragments are searched exactly (see",
        "--explain).", ""},
    footer = {
      "",
      "Examples:",
      "  javelin search items --column v --vector 0.1,0.2,0.3,0.4 --k 5",
      "  javelin search items --column v --vector 0.1,0.2,0.3,0.4 --nprobes 40 \\",
      "      --refine-factor 4 --filter \"category = 'shoes'\" --prefilter \\",
      "      --columns id,name",
      "  javelin search items --column v --vector 0.1,0.2,0.3,0.4 --explain"
    })
final class SearchCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Option(names = "--column", required = true, paramLabel = "COL",
      description = "The vector column (fixed_size_list<float32>).")
  String column;

  @Option(names = "--vector", required = true, split = ",", paramLabel = "X",
      description = "The query vector, comma-separated.")
  float[] vector;

  @Option(names = {"-k", "--k"}, paramLabel = "N", defaultValue = "10", description = "Rows to return (default: ${DEFAULT-VALUE}).")
  int k;

  @Option(names = {"--nprobes", "--min-nprobes"}, paramLabel = "N", defaultValue = "" + VectorQuery.DEFAULT_NPROBES,
      description = "IVF partitions always searched (Lance's minimum_nprobes; default: ${DEFAULT-VALUE}).")
  int nprobes;

  @Option(names = "--max-nprobes", paramLabel = "N",
      description = "Most IVF partitions to search while fewer than k rows are found (Lance's maximum_nprobes; "
          + "default: all).")
  Integer maxNprobes;

  @Option(names = "--refine-factor", paramLabel = "R",
      description = "Re-rank k*R index candidates with their true vectors; _distance is then the true distance.")
  Integer refineFactor;

  @Option(names = "--ef", paramLabel = "N",
      description = "IVF_HNSW_SQ: the graph search's width in each probed partition (default: 1.5 * k * R).")
  Integer ef;

  @Option(names = {"-w", "--filter", "--where"}, paramLabel = "SQL", description = "Only rows where this is true.")
  String filter;

  @Option(names = "--prefilter",
      description = "Filter before searching (the k nearest passing rows); by default the filter applies to the "
          + "k nearest.")
  boolean prefilter;

  @Option(names = "--distance", paramLabel = "TYPE",
      description = "l2, cosine or dot (default: the index's, else l2).")
  String distance;

  @Option(names = "--exact", description = "Do not use an index.")
  boolean exact;

  @Option(names = "--explain",
      description = "Also print (to standard error) how the search uses the indices and which fragments it "
          + "searches exactly.")
  boolean explain;

  @Option(names = {"-c", "--columns"}, split = ",", paramLabel = "COL",
      description = "Columns to print (default: all), before _distance.")
  List<String> columns;

  @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "table",
      converter = OutputFormat.Converter.class,
      description = "table, jsonl, csv, arrow or parquet (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write to FILE instead of standard output (required for arrow and parquet); replaces FILE.")
  Path output;

  @Override
  public Integer call() throws IOException {
    if (k < 1) {
      throw new InvalidInputException("--k must be at least 1, got " + k);
    }
    if (nprobes < 1) {
      throw new InvalidInputException("--nprobes must be at least 1, got " + nprobes);
    }
    if (maxNprobes != null && maxNprobes < 1) {
      throw new InvalidInputException("--max-nprobes must be at least 1, got " + maxNprobes);
    }
    if (refineFactor != null && refineFactor < 1) {
      throw new InvalidInputException("--refine-factor must be at least 1, got " + refineFactor);
    }
    if (ef != null && ef < 1) {
      throw new InvalidInputException("--ef must be at least 1, got " + ef);
    }
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      VectorQuery q = ds.nearest(column, vector).k(k).nprobes(nprobes).prefilter(prefilter).useIndex(!exact);
      if (maxNprobes != null) {
        q.maximumNprobes(maxNprobes);
      }
      if (refineFactor != null) {
        q.refineFactor(refineFactor);
      }
      if (ef != null) {
        q.ef(ef);
      }
      if (filter != null) {
        q.filter(filter);
      }
      if (distance != null) {
        q.distanceType(DistanceType.fromName(distance));
      }
      if (columns != null) {
        q.columns(Columns.check(ds, columns));
      }
      try (RowOutput out = new RowOutput(this, format, output, allocator); VectorSchemaRoot rows = q.execute()) {
        if (explain) {
          err().print(q.explain().describe());
        }
        out.report(out.writeOne(rows));
        Field distance = rows.getSchema().findField(VectorQuery.DISTANCE);
        if ("approximate".equals(distance.getMetadata().get(VectorQuery.DISTANCE_KIND_KEY))) {
          err().println("note: _distance is approximate (" + q.explain().index().kind()
              + " codes); --refine-factor gives true distances");
        }
      } catch (VectorIndexException e) {
        throw new InvalidInputException(e.getMessage());
      }
    }
    return ExitCodes.OK;
  }
}
