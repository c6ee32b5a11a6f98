package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorQuery;
import dev.javelin.index.ivf.DistanceType;
import dev.javelin.index.ivf.VectorIndexException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin search}: the rows nearest a query vector. */
@Command(
    name = "search",
    header = "Find the rows whose vectors are nearest a query vector.",
    description = {"Uses the column's IVF_PQ index when there is one (fragments it does not cover are",
        "searched exactly), else an exact search. Rows come nearest first, with a _distance column.", ""},
    footer = {
      "",
      "Examples:",
      "  javelin search items --column v --vector 0.1,0.2,0.3,0.4 --k 5",
      "  javelin search items --column v --vector 0.1,0.2,0.3,0.4 --nprobes 40 --refine-factor 4 \\",
      "      --filter \"category = 'shoes'\" --prefilter --columns id,name"
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

  @Option(names = "--nprobes", paramLabel = "N", defaultValue = "" + VectorQuery.DEFAULT_NPROBES,
      description = "IVF partitions to search (default: ${DEFAULT-VALUE}).")
  int nprobes;

  @Option(names = "--refine-factor", paramLabel = "R",
      description = "Re-rank k*R index candidates with their true vectors.")
  Integer refineFactor;

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

  @Option(names = {"-c", "--columns"}, split = ",", paramLabel = "COL",
      description = "Columns to print (default: all), before _distance.")
  List<String> columns;

  @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "table",
      converter = OutputFormat.Converter.class,
      description = "table, jsonl, csv or arrow (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write to FILE instead of standard output (required for arrow); replaces FILE.")
  Path output;

  @Override
  public Integer call() throws IOException {
    if (k < 1) {
      throw new InvalidInputException("--k must be at least 1, got " + k);
    }
    if (nprobes < 1) {
      throw new InvalidInputException("--nprobes must be at least 1, got " + nprobes);
    }
    if (refineFactor != null && refineFactor < 1) {
      throw new InvalidInputException("--refine-factor must be at least 1, got " + refineFactor);
    }
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      VectorQuery q = ds.nearest(column, vector).k(k).nprobes(nprobes).prefilter(prefilter).useIndex(!exact);
      if (refineFactor != null) {
        q.refineFactor(refineFactor);
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
        out.report(out.writeOne(rows));
      } catch (VectorIndexException e) {
        throw new InvalidInputException(e.getMessage());
      }
    }
    return ExitCodes.OK;
  }
}
