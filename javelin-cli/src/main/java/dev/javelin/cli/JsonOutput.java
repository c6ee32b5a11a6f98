package dev.javelin.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/**
 * What {@code --json} prints: one JSON document on one line, written by the project's mapper
 * ({@link dev.javelin.common.Json}) with the CLI's escapes ({@link Cells#json}). The shapes are
 * documented in {@code docs/cli-json.md}.
 */
final class JsonOutput {
  private JsonOutput() {}

  static void print(PrintWriter out, JsonNode document) {
    out.println(Cells.json(g -> g.writeTree(document)));
  }
}
