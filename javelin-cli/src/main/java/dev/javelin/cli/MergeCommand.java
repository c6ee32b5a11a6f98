package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.MergeInsertBuilder;
import dev.javelin.core.MergeInsertResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin merge}: an upsert (Lance's merge insert) of an input's rows by key columns. */
@Command(
    name = "merge",
    header = "Upsert rows from a file by key columns (merge insert).",
    description = {
      "Rows of the input are matched to the dataset's rows by the --on columns (a NULL",
      "key matches nothing); each key may appear once in the input. By default a",
      "matched row is replaced by the input's row and an unmatched input row is",
      "inserted, in one commit (lance-core's merge insert). The input's columns must be",
      "the dataset's (by name, in any order). A BTree index on a single key column",
      "finds the matches without reading every key (--explain says whether).",
      ""
    },
    footer = {"", FilterHelp.TEXT, "", "Examples:",
        "  javelin merge people --input changes.parquet --on id",
        "  javelin merge people --input new.csv --on id --when-matched nothing",
        "  javelin merge people --input day.jsonl --on id \\",
        "      --update-if 'source.ts > target.ts'",
        "  javelin merge people --input all.parquet --on id \\",
        "      --when-not-matched-by-source delete"})
final class MergeCommand extends DatasetChange {
  @Option(names = {"-i", "--input"}, required = true, paramLabel = "IN",
      description = "Parquet, JSON Lines, Arrow IPC (file or stream) or CSV with a header.")
  Path input;

  @Mixin
  InputOptions inputOptions = new InputOptions();

  @Option(names = "--on", required = true, split = ",", paramLabel = "COL",
      description = "The key column(s): --on id, or --on a,b for a key of two columns.")
  List<String> on = new ArrayList<>();

  @Option(names = "--when-matched", paramLabel = "ACTION", defaultValue = "update",
      description = "update (default), delete, nothing, or fail: what a matched dataset row gets.")
  String whenMatched;

  @Option(names = "--update-if", paramLabel = "SQL",
      description = "With --when-matched update: update only where this is true; it names "
          + "target.col and source.col, e.g. 'source.ts > target.ts'.")
  String updateIf;

  @Option(names = "--when-not-matched", paramLabel = "ACTION", defaultValue = "insert",
      description = "insert (default) or nothing: what an input row without a match gets.")
  String whenNotMatched;

  @Option(names = "--when-not-matched-by-source", paramLabel = "ACTION", defaultValue = "keep",
      description = "keep (default) or delete: what a dataset row no input row matches gets.")
  String whenNotMatchedBySource;

  @Option(names = "--delete-if", paramLabel = "SQL",
      description = "With --when-not-matched-by-source delete: delete only the unmatched rows where "
          + "this filter over the dataset's columns is true.")
  String deleteIf;

  @Option(names = "--conflict-retries", paramLabel = "N", defaultValue = "10",
      description = "Times to run the merge again after losing a race with a concurrent writer (default: 10).")
  int conflictRetries;

  @Option(names = "--retry-timeout", paramLabel = "SECONDS", defaultValue = "30",
      description = "No new attempt after this many seconds (default: 30).")
  long retryTimeoutSeconds;

  @Option(names = "--explain", description = "Print how the matches would be found, and commit nothing.")
  boolean explain;

  private MergeInsertResult result;

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) throws Exception {
    if (!Files.exists(input)) {
      throw new InvalidInputException("Input file not found: " + input);
    }
    if (Files.isDirectory(input)) {
      throw new InvalidInputException("Input is a directory, not a file: " + input);
    }
    if (updateIf != null && !whenMatched.equals("update")) {
      throw new InvalidInputException("--update-if needs --when-matched update, not " + whenMatched);
    }
    if (deleteIf != null && !whenNotMatchedBySource.equals("delete")) {
      throw new InvalidInputException("--delete-if needs --when-not-matched-by-source delete, not "
          + whenNotMatchedBySource);
    }
    if (conflictRetries < 0) {
      throw new InvalidInputException("--conflict-retries must be at least 0, got " + conflictRetries);
    }
    Inputs.Format format = Inputs.detect(input, inputOptions.format);
    try (ArrowReader data = Inputs.open(input, format, null, ds.schema().toArrow(), inputOptions, allocator)) {
      MergeInsertBuilder b = configure(ds.mergeInsert(data).on(on));
      if (explain) {
        out().print(b.explain().describe());
        flushOut();
        return ds;
      }
      result = b.commit();
      return result.dataset();
    }
  }

  private MergeInsertBuilder configure(MergeInsertBuilder b) {
    switch (whenMatched) {
      case "update" -> {
        if (updateIf == null) {
          b.whenMatchedUpdateAll();
        } else {
          b.whenMatchedUpdateIf(updateIf);
        }
      }
      case "delete" -> b.whenMatchedDelete();
      case "nothing" -> b.whenMatchedDoNothing();
      case "fail" -> b.whenMatchedFail();
      default -> throw new InvalidInputException("--when-matched must be update, delete, nothing or fail, not '"
          + whenMatched + "'");
    }
    switch (whenNotMatched) {
      case "insert" -> b.whenNotMatchedInsertAll();
      case "nothing" -> b.whenNotMatchedDoNothing();
      default -> throw new InvalidInputException("--when-not-matched must be insert or nothing, not '"
          + whenNotMatched + "'");
    }
    switch (whenNotMatchedBySource) {
      case "keep" -> b.whenNotMatchedBySourceKeep();
      case "delete" -> {
        if (deleteIf == null) {
          b.whenNotMatchedBySourceDelete();
        } else {
          b.whenNotMatchedBySourceDeleteIf(deleteIf);
        }
      }
      default -> throw new InvalidInputException("--when-not-matched-by-source must be keep or delete, not '"
          + whenNotMatchedBySource + "'");
    }
    return b.conflictRetries(conflictRetries).retryTimeout(Duration.ofSeconds(retryTimeoutSeconds));
  }

  @Override
  String summary(Dataset before, Dataset after) {
    if (result == null) {
      return "Explained the merge of " + input;
    }
    return String.format(Locale.ROOT, "Merged %s: %s inserted, %s updated, %s deleted (%s)", input,
        rows(result.rowsInserted()), rows(result.rowsUpdated()), rows(result.rowsDeleted()),
        Formats.count(result.attempts(), "attempt"));
  }
}
