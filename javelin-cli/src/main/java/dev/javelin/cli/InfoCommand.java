package dev.javelin.cli;

import dev.javelin.format.FileInfo;
import dev.javelin.format.LanceFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code javelin file info}: version, rows, schema, and each column's pages and encodings. */
@Command(
    name = "info",
    header = "Show a file's version, rows, schema and column pages.",
    description = {
      "Reads only the file's metadata. The schema shows field ids. Each column shows",
      "the field it stores and its pages: rows, buffer sizes, and the encoding in one",
      "line, such as Nullable(NoNull(Flat(64))) in 2.0, or in 2.1",
      "MiniBlock(def=Flat(16), value=Flat(32), layers=[NULLABLE_ITEM], num_buffers=1).",
      ""
    })
final class InfoCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "IN.lance", description = "The Lance file to describe.")
  Path input;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    if (Files.isDirectory(input)) {
      throw new InvalidInputException("Not a Lance file but a directory: " + input);
    }
    try (BufferAllocator allocator = new RootAllocator();
        LanceFileReader reader = LanceFileReader.open(input, allocator)) {
      FileInfo info = FileInfo.of(reader.metadata());
      if (json) {
        out().println(info.toJson());
      } else {
        out().print(InfoText.render(info, input.toString(), Files.size(input)));
      }
    }
    out().flush();
    return ExitCodes.OK;
  }
}
