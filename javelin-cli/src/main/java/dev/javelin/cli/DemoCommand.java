package dev.javelin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code javelin demo}: a short tour, on standard output as one stream. It saves sample rows as
 * Arrow, writes them as Lance 2.1 and 2.0 files, reads them back, then follows a dataset through
 * its life; each step says what it does and runs the very command it prints.
 */
@Command(
    name = "demo",
    header = "A 30-second tour of Lance files and datasets.",
    description = {
      "Saves " + DemoCommand.ROWS + " sample rows (int64, utf8, float64, a fixed-size list of 4",
      "float32, a nullable int32, a list of int32 and a struct) as Arrow in a new",
      "temporary directory (or --dir), writes them as Lance 2.1 and 2.0 files and",
      "reads them back, then follows a dataset made of them through its life:",
      "create, filtered scan, delete, add and drop columns, versions, time travel,",
      "tag and restore, a BTree index answering a filter, a column repack after",
      "backfills, and a clustering by a column whose moved rows the index finds",
      "through a row map until it is settled.",
      "",
      "The tour is one stream on standard output: each step says what it does, then",
      "shows the command (after a $) and what it printed, so 'javelin demo | less'",
      "and 'javelin demo > tour.txt' keep it whole.",
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

    say("Javelin reads and writes Lance files and datasets in pure Java. This tour goes");
    say("through fifteen short steps; each says what it does and why, shows the command");
    say("(after a $) and then what the command printed. Everything is written to");
    say(d + ".");
    String ds = people.toString();
    int code = steps(
        step("1. " + ROWS + " sample rows wait in an Arrow file (ids, names, scores, vectors,",
            "   nullable ratings, lists of tags, an address struct). Write them as a Lance",
            "   file twice, in the two file formats: 2.1 (the default) and the older 2.0."),
        cmd("file", "write", v21.toString(), "--input", arrow.toString(), "--version", "2.1"),
        cmd("file", "write", v20.toString(), "--input", arrow.toString(), "--version", "2.0"),
        step("2. What is inside: the schema with field ids, then each column's pages and how",
            "   they are encoded (only the first lines here; the command shows all of them)."),
        excerpt(new String[] {"file", "info", v21.toString()}, 4, "columns (", 3),
        step("3. Read a range of rows; only the pages holding them are decoded."),
        cmd("file", "read", v21.toString(), "--rows", "0:5"),
        step("4. Take rows by position, in any order, from the 2.0 file."),
        cmd("file", "read", v20.toString(), "--take", "299,0,150", "--columns", "id,name,vector,tags,address"),
        step("5. A dataset is a directory of fragments (groups of rows) with a manifest per",
            "   version. Create one from the same rows, 100 rows per fragment."),
        cmd("create", ds, "--input", arrow.toString(), "--max-rows-per-file", "100"),
        step("6. Scan it with a filter (nested fields too); only the columns named are read."),
        cmd("scan", ds, "--filter", "rating IS NULL AND address.city IN ('Oslo', 'Lyon')",
            "--columns", "id,name,rating,address", "--limit", "5"),
        step("7. Delete rows by filter: a deletion file per fragment, no data rewritten."),
        cmd("delete", ds, "--where", "score < 0 OR name LIKE 'a%'"),
        step("8. Add a column (all null: metadata only) and drop one (its field retired)."),
        cmd("add-columns", ds, "--null", "note:utf8?"),
        cmd("drop-columns", ds, "vector"),
        step("9. Every change made a version, and old versions stay readable: count version 1."),
        cmd("versions", ds),
        cmd("count", ds, "--as-of", "1"),
        step("10. Tag the newest version, then bring back version 1 as a new version 5."),
        cmd("tag", "create", ds, "trimmed"),
        cmd("restore", ds, "--version", "1"),
        excerpt(new String[] {"describe", ds}, 4, null, 0),
        step("11. Index the id column: a filtered scan then reads only the rows the index",
            "    names (--explain says how the scan found them, before the rows)."),
        cmd("index", "create", ds, "--column", "id", "--type", "btree"),
        cmd("scan", ds, "--filter", "id BETWEEN 40 AND 44", "--columns", "id,name,score", "--explain"),
        step("12. Backfill two columns: each gives every fragment one more data file to open."),
        cmd("add-columns", ds, "--expr", "score2=score * 2"),
        cmd("add-columns", ds, "--expr", "bucket=id % 7"),
        cmd("layout", ds),
        step("13. Repack each fragment's columns into one file. Rows keep their addresses, so",
            "    the index stays valid without a rebuild."),
        cmd("compact", ds, "--scope", "repack", "--max-data-files-per-fragment", "1"),
        cmd("layout", ds),
        step("14. Cluster the rows by score, 100 to a fragment: new fragment 3 gets the lowest",
            "    scores, 4 the middle ones, 5 the highest (inside a fragment rows keep their",
            "    old order). It commits twice: one version reserves the new fragment ids, the",
            "    next moves the rows. Scans read fragments in order, so the first rows now",
            "    have the lowest scores and the last ones the highest."),
        cmd("cluster", ds, "--by", "score", "--target-rows-per-fragment", "100"),
        cmd("scan", ds, "--columns", "id,name,score", "--limit", "4"),
        cmd("scan", ds, "--columns", "id,name,score", "--offset", "296"),
        step("15. The id index was built before the rows moved. It still answers, through the",
            "    clustering's row map; settling remaps it onto the new fragments."),
        cmd("scan", ds, "--filter", "id BETWEEN 40 AND 44", "--columns", "id,name,score", "--explain"),
        cmd("index", "settle", ds));
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

  /** A step of the tour: narration, a command, or a command shown in part. */
  private interface Step {
    int run();
  }

  private Step step(String... lines) {
    return () -> {
      say("");
      for (String line : lines) {
        say(line);
      }
      return 0;
    };
  }

  private Step cmd(String... args) {
    return () -> run(args);
  }

  /**
   * Runs a command and shows the first {@code head} lines of what it printed, then (if
   * {@code from} is not null) {@code count} lines from the first one starting with {@code from},
   * each cut to 80 columns, and a last line saying how many were left out.
   */
  private Step excerpt(String[] args, int head, String from, int count) {
    return () -> {
      say("");
      say(commandLine(args));
      StringWriter text = new StringWriter();
      PrintWriter captured = new PrintWriter(text);
      int code = Javelin.commandLine(captured, captured).execute(args);
      captured.flush();
      List<String> lines = text.toString().lines().toList();
      if (code != 0) {
        lines.forEach(this::say);
        err().println(ErrorHandler.PREFIX + "the tour stopped: '" + commandLine(args).substring(2) + "' failed");
        return code;
      }
      int shown = Math.min(head, lines.size());
      for (String line : lines.subList(0, shown)) {
        say(DisplayWidth.cut(line, 80));
      }
      if (from != null) {
        for (int i = head; i < lines.size(); i++) {
          if (lines.get(i).startsWith(from)) {
            say("...");
            for (String line : lines.subList(i, Math.min(lines.size(), i + count))) {
              say(DisplayWidth.cut(line, 80));
              shown++;
            }
            break;
          }
        }
      }
      if (shown < lines.size()) {
        say("... (" + Formats.count(lines.size() - shown, "more line") + ")");
      }
      return 0;
    };
  }

  // Runs the steps in order; stops at the first failing command.
  private int steps(Step... steps) {
    for (Step s : steps) {
      int code = s.run();
      if (code != 0) {
        return code;
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

  // The tour is one stream on standard output, narration, commands and what they print in the
  // order they happen, so that `javelin demo | less` or `> tour.txt` keeps the story.
  private void say(String line) {
    out().println(line);
  }

  private static String commandLine(String... args) {
    StringBuilder line = new StringBuilder("$ javelin");
    for (String a : args) {
      line.append(' ').append(shellQuote(a));
    }
    return line.toString();
  }

  // A command of the tour, its messages and data both on standard output.
  private int run(String... args) {
    say("");
    say(commandLine(args));
    int code = Javelin.commandLine(out(), out()).execute(args);
    flushOut();
    if (code != 0) {
      err().println(ErrorHandler.PREFIX + "the tour stopped: '" + commandLine(args).substring(2) + "' failed");
    }
    return code;
  }
}
