package dev.javelin.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.core.VersionInfo;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code javelin versions}: every version with when, what and how many rows. */
@Command(
    name = "versions",
    header = "List a dataset's versions: number, time, operation, rows.",
    description = {"A version whose manifest cannot be read is listed as unreadable (the reason goes",
        "to stderr); the others are listed all the same.", ""},
    footer = {"", "Examples:", "  javelin versions people", "  javelin versions people --json"})
final class VersionsCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Option(names = "--json", description = "Print JSON instead (see docs/cli-json.md).")
  boolean json;

  @Override
  public Integer call() {
    // Listed without opening the newest version, so a damaged manifest shows as unreadable.
    List<VersionInfo> versions = dataset(uri).versions();
    if (json) {
      ArrayNode all = Json.array();
      for (VersionInfo v : versions) {
        ObjectNode o = all.addObject();
        o.set("version", Json.unsigned(v.version()));
        o.put("readable", v.readable());
        if (v.readable()) {
          o.put("timestamp", v.timestamp().map(Object::toString).orElse(null));
          o.put("operation", v.operation());
          o.put("rows", v.rowCount());
        } else {
          o.put("problem", v.problem().orElse(null));
        }
      }
      JsonOutput.print(out(), all);
    } else {
      TextTable table = new TextTable(">version", "timestamp", "operation", ">rows");
      for (VersionInfo v : versions) {
        if (v.readable()) {
          table.row(Long.toUnsignedString(v.version()), v.timestamp().map(Object::toString).orElse("-"),
              v.operation(), Formats.number(v.rowCount()));
        } else {
          table.row(Long.toUnsignedString(v.version()), "-", VersionInfo.UNREADABLE, "-");
        }
      }
      table.print(out());
    }
    for (VersionInfo v : versions) {
      v.problem().ifPresent(p -> err().println(ErrorHandler.PREFIX + "version " + v.version() + " is unreadable: " + p));
    }
    return ExitCodes.OK;
  }
}
