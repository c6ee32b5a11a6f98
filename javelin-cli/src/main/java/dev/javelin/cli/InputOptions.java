package dev.javelin.cli;

import java.nio.charset.Charset;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** How to read an input file, for the commands that take one (a picocli mixin). */
final class InputOptions {
  @Option(names = "--input-format", paramLabel = "FORMAT", converter = FormatConverter.class,
      description = "parquet, jsonl, arrow or csv: read the input as this, instead of telling it "
          + "by its first bytes and name.")
  Inputs.Format format;

  @Option(names = "--delimiter", paramLabel = "CHAR", converter = DelimiterConverter.class,
      description = "The CSV's cell separator: one character, or 'tab' (default: found from the "
          + "header line among , ; tab |).")
  Character delimiter;

  @Option(names = "--encoding", paramLabel = "NAME",
      description = "The text encoding of a CSV or JSON Lines input, e.g. latin1, windows-1252 (default: utf-8).")
  String encoding;

  Charset charset() {
    return TextFiles.charset(encoding);
  }

  /** For picocli: parquet, jsonl (or json, ndjson), arrow (file or stream), csv. */
  static final class FormatConverter implements ITypeConverter<Inputs.Format> {
    @Override
    public Inputs.Format convert(String value) {
      switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "parquet":
          return Inputs.Format.PARQUET;
        case "jsonl":
        case "json":
        case "ndjson":
          return Inputs.Format.JSONL;
        case "arrow":
        case "ipc":
          return Inputs.Format.ARROW_FILE;
        case "csv":
          return Inputs.Format.CSV;
        default:
          throw new TypeConversionException("'" + value + "' is not an input format (expected parquet, jsonl, "
              + "arrow or csv)");
      }
    }
  }

  /** For picocli: one character, or tab spelled out. */
  static final class DelimiterConverter implements ITypeConverter<Character> {
    @Override
    public Character convert(String value) {
      if (value.equalsIgnoreCase("tab") || value.equals("\\t")) {
        return '\t';
      }
      if (value.length() != 1 || value.equals("\"") || value.equals("\n") || value.equals("\r")) {
        throw new TypeConversionException("'" + value + "' is not a delimiter (expected one character other "
            + "than a quote or line break, or 'tab')");
      }
      return value.charAt(0);
    }
  }
}
