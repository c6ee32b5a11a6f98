package dev.javelin.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
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
      "'file read' on them, and follows a dataset made of them through its life:",
      "create, filtered scan, delete, add and drop columns, versions, time travel,",
      "tag and restore, a BTree index answering a filter, a column repack after",
      "backfills that keeps the index answering, and a clustering by a column whose",
      "moved rows the index finds through a row map until it is settled. Each command",
      "is printed before its output.",
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
    Path people = d.resolve("people");
    Files.deleteIfExists(v21);
    Files.deleteIfExists(v20);
    deleteTree(people);
    try (BufferAllocator allocator = new RootAllocator()) {
      SampleData.writeArrow(arrow, allocator, ROWS);
    }

    say("Javelin reads and writes Lance files in pure Java. A tour in fourteen steps.");
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
    say("Datasets: a directory of fragments (rows), each with data files (columns), and a");
    say("manifest per version. Every change is a new version; old versions stay readable.");
    String ds = people.toString();
    code = steps(
        new String[] {"5. Create a dataset of the same rows, 100 rows per fragment:"},
        new String[] {"create", ds, "--input", arrow.toString(), "--max-rows-per-file", "100"},
        new String[] {"6. Scan it with a filter (nested fields too), reading only the columns needed:"},
        new String[] {"scan", ds, "--filter", "rating IS NULL AND address.city IN ('Oslo', 'Lyon')",
            "--columns", "id,name,rating,address", "--limit", "5"},
        new String[] {"7. Delete rows by filter: deletion files, no data rewritten:"},
        new String[] {"delete", ds, "--where", "score < 0 OR name LIKE 'a%'"},
        new String[] {"8. Add a column (all-null: metadata only) and drop one (tombstoned):"},
        new String[] {"add-columns", ds, "--null", "note:utf8?"},
        new String[] {"drop-columns", ds, "vector"},
        new String[] {"9. Every version, and time travel to the first one:"},
        new String[] {"versions", ds},
        new String[] {"count", ds, "--as-of", "1"},
        new String[] {"10. Tag the newest version, bring back the first, and look at the result:"},
        new String[] {"tag", "create", ds, "trimmed"},
        new String[] {"restore", ds, "--version", "1"},
        new String[] {"describe", ds},
        new String[] {"11. Index a column: filtered scans then read only the rows the index names:"},
        new String[] {"index", "create", ds, "--column", "id", "--type", "btree"},
        new String[] {"scan", ds, "--filter", "id BETWEEN 40 AND 44", "--columns", "id,name,score", "--explain"},
        new String[] {"12. Backfill two columns: each gives every fragment one more data file to open and read:"},
        new String[] {"add-columns", ds, "--expr", "score2=score * 2"},
        new String[] {"add-columns", ds, "--expr", "bucket=id % 7"},
        new String[] {"layout", ds},
        new String[] {"13. Repack each fragment's columns into one file; rows, row addresses and the index stay:"},
        new String[] {"compact", ds, "--scope", "repack", "--max-data-files-per-fragment", "1"},
        new String[] {"layout", ds},
        new String[] {"scan", ds, "--filter", "id BETWEEN 40 AND 44", "--columns", "id,name,score2", "--explain"},
        new String[] {"14. Cluster rows by score: they move to new fragments, and the id index, built before,",
            "    finds them through the clustering's row map; settling remaps the index onto them:"},
        new String[] {"cluster", ds, "--by", "score", "--target-rows-per-fragment", "100"},
        new String[] {"scan", ds, "--filter", "id BETWEEN 40 AND 44", "--columns", "id,name,score", "--explain"},
        new String[] {"index", "settle", ds},
        new String[] {"scan", ds, "--filter", "id BETWEEN 40 AND 44", "--columns", "id,name,score", "--explain"});
    if (code != 0) {
      return code;
    }
    say("");
    say("The files are in " + d + ". Try:");
    say("  javelin file read " + v21 + " --rows 10:13 --format jsonl");
    say("  javelin scan " + ds + " --tag trimmed --columns id,name,note --format csv");
    say("  javelin take " + ds + " --rows 0,299,150 --columns id,name,tags");
    return ExitCodes.OK;
  }

  // Alternates explanations (say; an item whose first line starts "N. ") and commands (run); stops at
  // the first failing command.
  private int steps(String[]... items) {
    for (String[] item : items) {
      if (item.length == 1 || item[0].matches("\\d+\\. .*")) {
        say("");
        for (String line : item) {
          say(line);
        }
      } else {
        int code = run(item);
        if (code != 0) {
          return code;
        }
      }
    }
    return 0;
  }

  /** The argument as a POSIX shell would need it, so a printed command can be pasted. */
  static String shellQuote(String arg) {
    if (arg.matches("[A-Za-z0-9_./:=,+@%-]+")) {
      return arg;
    }
    if (arg.indexOf('\'') < 0) {
      return "'" + arg + "'";
    }
    return "\"" + arg.replaceAll("([\"\\\\$`])", "\\\\$1") + "\"";
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  private void say(String line) {
    flushOut();
    err().println(line);
    err().flush();
  }

  private int run(String... args) {
    say("");
    StringBuilder line = new StringBuilder("$ javelin");
    for (String a : args) {
      line.append(' ').append(shellQuote(a));
    }
    say(line.toString());
    int code = Javelin.commandLine(out(), err()).execute(args);
    flushOut();
    return code;
  }
}
