package dev.javelin.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code javelin demo}: a short tour. It saves sample rows as Arrow, writes them as Lance 2.1
 * and 2.0 with {@code file write}, and shows {@code file info} and {@code file read} on the
 * results; each step runs the very command it prints.
 */
@Command(
    name = "demo",
    header = "A 30-second tour of Lance files and datasets.",
    description = {
      "Saves " + DemoCommand.ROWS + " sample rows (int64, utf8, float64, a fixed-size list of 4",
      "float32, a nullable int32, a list of int32 and a struct) as Arrow in a new",
      "temporary directory (or --dir), then runs 'file write', 'file info' and",
      "'file read' on them, printing each command before its output.",
      ""
    })
final class DemoCommand extends BaseCommand {
  static final int ROWS = 300;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Where to put the files (created if missing; sample files in it are replaced).")
  Path dir;

  @Override
  public Integer call() throws IOException {
    Path d = dir == null ? Files.createTempDirectory("javelin-demo-") : dir;
    if (Files.exists(d) && !Files.isDirectory(d)) {
      throw new InvalidInputException("--dir is a file, not a directory: " + d);
    }
    Files.createDirectories(d);
    Path arrow = d.resolve("sample.arrow");
    Path v21 = d.resolve("sample-2.1.lance");
    Path v20 = d.resolve("sample-2.0.lance");
    Files.deleteIfExists(v21);
    Files.deleteIfExists(v20);
    try (BufferAllocator allocator = new RootAllocator()) {
      SampleData.writeArrow(arrow, allocator, ROWS);
    }

    say("Javelin reads and writes Lance files in pure Java. A tour in four steps.");
    say("");
    say("1. " + ROWS + " sample rows are in an Arrow IPC file, " + arrow + ":");
    say("   id int64, name utf8, score float64, vector fixed_size_list<float32, 4>,");
    say("   rating int32 (some null), tags list<int32>, address struct<city utf8, zip int32>.");
    say("   Write them in both Lance file formats:");
    int code = run("file", "write", v21.toString(), "--input", arrow.toString(), "--version", "2.1");
    code = code != 0 ? code : run("file", "write", v20.toString(), "--input", arrow.toString(), "--version", "2.0");
    if (code != 0) {
      return code;
    }
    say("");
    say("2. What is inside: the schema with field ids, and each column's pages and encodings.");
    say("   2.1 gives each leaf field a column, encoded in mini-block or full-zip pages:");
    code = run("file", "info", v21.toString());
    if (code != 0) {
      return code;
    }
    say("");
    say("   2.0 gives every field a column, structs and lists too, with nested array encodings:");
    code = run("file", "info", v20.toString());
    if (code != 0) {
      return code;
    }
    say("");
    say("3. Read a range of rows; only the pages holding them are decoded:");
    code = run("file", "read", v21.toString(), "--rows", "0:5");
    if (code != 0) {
      return code;
    }
    say("");
    say("4. Take rows by index, in any order, from the 2.0 file:");
    code = run("file", "read", v20.toString(), "--take", "299,0,150", "--columns", "id,name,vector,tags,address");
    if (code != 0) {
      return code;
    }
    say("");
    say("The files are in " + d + ". Try:");
    say("  javelin file read " + v21 + " --rows 10:13 --format jsonl");
    say("  javelin file read " + v20 + " --columns id,score,rating --format csv");
    say("  javelin file info " + v21 + " --json");
    return ExitCodes.OK;
  }

  private void say(String line) {
    flushOut();
    err().println(line);
    err().flush();
  }

  private int run(String... args) {
    say("");
    say("$ javelin " + String.join(" ", args));
    int code = Javelin.commandLine(out(), err()).execute(args);
    flushOut();
    return code;
  }
}
