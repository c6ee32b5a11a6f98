package dev.javelin.cli;

import dev.javelin.core.Dataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin add-columns}: new columns, one more data file per fragment (or none, all-null). */
@Command(
    name = "add-columns",
    header = "Add columns: from expressions, a file in scan order, or nulls.",
    description = {
      "--expr computes each value from the row's columns; --input gives one value",
      "per row, in the order 'javelin scan' returns the rows: either way every",
      "fragment gets one more data file. --null adds nullable columns that read as",
      "null everywhere, as metadata only.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  javelin add-columns people --expr 'double=score * 2' --expr \"a=name LIKE 'a%%'\"",
      "  javelin add-columns people --input embeddings.parquet",
      "  javelin add-columns people --null 'email:utf8?,score:float64?'"
    })
final class AddColumnsCommand extends DatasetChange {
  @Option(names = {"-i", "--input"}, paramLabel = "IN",
      description = "Parquet, JSON Lines, Arrow IPC or CSV with a header: the new columns, one row per "
          + "dataset row.")
  Path input;

  @Mixin
  InputOptions inputOptions = new InputOptions();

  @Option(names = "--schema", paramLabel = "SPEC", converter = SchemaSpec.Converter.class,
      description = "Types of the CSV or JSON Lines columns of --input, as NAME:TYPE[?],...")
  SchemaSpec schema;

  @Option(names = "--null", paramLabel = "SPEC", converter = SchemaSpec.Converter.class,
      description = "All-null columns to add, as NAME:TYPE?,... (every one nullable).")
  SchemaSpec nulls;

  @Option(names = "--expr", paramLabel = "NAME=EXPR",
      description = "A column computed from each row, e.g. 'total=price * qty' (repeatable).")
  Map<String, String> expressions = new LinkedHashMap<>();

  private final List<String> added = new ArrayList<>();

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) throws Exception {
    int ways = (input == null ? 0 : 1) + (nulls == null ? 0 : 1) + (expressions.isEmpty() ? 0 : 1);
    if (ways != 1) {
      throw new InvalidInputException("Give the new columns with exactly one of --input, --null and --expr");
    }
    if (!expressions.isEmpty()) {
      added.addAll(expressions.keySet());
      return ds.addColumns(expressions);
    }
    if (nulls != null) {
      for (Field f : nulls.schema().getFields()) {
        added.add(f.getName());
      }
      return ds.addNullColumns(nulls.schema().getFields());
    }
    if (!Files.isRegularFile(input)) {
      throw new InvalidInputException("Input file not found: " + input);
    }
    Inputs.Format format = Inputs.detect(input, inputOptions.format);
    try (ArrowReader reader = Inputs.open(input, format, schema, null, inputOptions, allocator)) {
      Inputs.checkWritable(input, reader.getVectorSchemaRoot().getSchema());
      for (Field f : reader.getVectorSchemaRoot().getSchema().getFields()) {
        added.add(f.getName());
      }
      return ds.addColumns(reader);
    }
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Added " + String.join(", ", added);
  }
}
