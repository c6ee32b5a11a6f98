package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.ScanOptions;

/**
 * Runs each lance-core 7.0.0 operation on its own copy of a dataset, in child JVMs, and reports per
 * operation whether it worked, failed with an error, or aborted the JVM (a Rust panic), and what
 * became of one named index entry in the copy's newest manifest.
 *
 * <p>Each operation gets a fresh copy so that a mutation (or a half-done one before a panic) does not
 * change what the next operation sees. The operations run in one child JVM one after another; when a
 * child dies, the operation it was running is recorded as aborted and a new child takes the rest, so
 * a run costs one JVM start plus one per abort.
 *
 * <p>The dataset must have {@link DatasetCompatSupport#SCHEMA}: appends write its rows, and delete,
 * drop-column and create-index name its columns {@code id} and {@code x}.
 */
final class LanceToleranceChecks {
  private static final String MARK = "@@tolerance ";
  private static final long TIMEOUT_SECONDS = 240;

  /** The lance-core operations checked. */
  enum Op {
    /** Open and scan every row and column; take two rows. */
    SCAN,
    /** A filtered count on the BTree-indexed column, with and without the index (must agree and use it). */
    INDEXED_COUNT,
    /** Drop the real index, then the filtered count (the entry must not be used to answer it). */
    DROP_INDEX_COUNT,
    /** {@code getIndexes()} (the plain index list). */
    LIST_INDEXES,
    /** {@code describeIndices()}. */
    DESCRIBE,
    /** {@code getIndexStatistics} on the entry under test. */
    STATS_ENTRY,
    /** {@code getIndexStatistics} on the real BTree index. */
    STATS_REAL,
    /** {@code optimizeIndices} with default options. */
    OPTIMIZE,
    /** Append 100 rows, then {@code optimizeIndices} with default options (indices get a delta). */
    OPTIMIZE_AFTER_APPEND,
    /** Append 100 rows. */
    APPEND,
    /** Delete by predicate. */
    DELETE,
    /** Add a column by SQL expression. */
    ADD_COLUMNS,
    /** Drop column {@code x} (not the indexed one). */
    DROP_COLUMN,
    /** Drop column {@code id}, the one the real index is on (and field 0). */
    DROP_ID_COLUMN,
    /** Create a BTree index on another column. */
    CREATE_INDEX,
    /** Compaction with a large target (rewrites every live fragment). */
    COMPACT,
    /** {@code cleanupWithPolicy} before the newest version, unverified files included, then a scan. */
    CLEANUP,
    /** A stale writer: delete from the version before the entry (lance-core rebases over the entry's commit). */
    STALE_DELETE,
    /** Check out the version before the entry and scan it. */
    CHECKOUT_OLD,
    /** Append, then check out the entry's version and restore it. */
    RESTORE
  }

  /** How an operation ended. */
  enum Kind { OK, ERROR, ABORTED }

  /**
   * What became of the entry in the newest manifest after the operation ({@code ABSENT}: there was
   * none before and there is none after, e.g. a settled dataset).
   */
  enum EntryState { CARRIED, CHANGED, DROPPED, ABSENT }

  /**
   * One operation's outcome: {@code message} is the result summary (OK), the error's message (ERROR) or
   * the panic line (ABORTED); {@code entry} and {@code entryChange} describe the entry afterwards;
   * {@code missingFiles} lists the watched files (relative paths) gone afterwards.
   */
  record Outcome(Op op, Kind kind, String message, EntryState entry, String entryChange, List<String> missingFiles) {
    /** A one-cell summary for a findings table. */
    String cell() {
      String base = switch (kind) {
        case OK -> "ok";
        case ERROR -> "error: " + shorten(message, 90);
        case ABORTED -> "ABORT: " + shorten(message, 90);
      };
      String e = switch (entry) {
        case CARRIED -> "";
        case CHANGED -> "; entry changed (" + entryChange + ")";
        case DROPPED -> "; entry dropped";
        case ABSENT -> "";
      };
      String f = missingFiles.isEmpty() ? "" : "; deleted " + String.join(",", missingFiles);
      return base + e + f;
    }
  }

  /**
   * A dataset to check: {@code entryName} the entry under test; {@code realIndex} a BTree index on
   * {@code id}; {@code filter} a filter on {@code id} it answers; {@code oldVersion} a version before the
   * entry; {@code entryVersion} the version that added it; {@code watchedFiles} paths (relative to the
   * dataset) the entry refers to, checked after each operation.
   */
  record Target(Path dataset, String entryName, String realIndex, String filter, long oldVersion, long entryVersion,
      List<String> watchedFiles) {}

  private LanceToleranceChecks() {}

  /**
   * Runs {@code ops} on copies of the target's dataset under {@code work}; one outcome per operation.
   * The target's entry must exist unless {@code entryMayBeAbsent} (then, without one, each outcome's
   * entry is ABSENT, or CHANGED if an operation made one).
   */
  static Map<Op, Outcome> run(Target t, List<Op> ops, Path work, boolean entryMayBeAbsent) {
    Optional<IndexMetadata> before = entry(t.dataset(), t.entryName());
    if (before.isEmpty() && !entryMayBeAbsent) {
      throw new IllegalArgumentException("No entry " + t.entryName() + " in " + t.dataset());
    }
    IndexMetadata entry = before.orElse(null);
    List<Path> copies = new ArrayList<>();
    for (Op op : ops) {
      Path copy = work.resolve(op.name().toLowerCase());
      copyTree(t.dataset(), copy);
      copies.add(copy);
    }
    Map<Integer, String[]> results = new TreeMap<>();
    int next = 0;
    while (next < ops.size()) {
      next = runChild(t, ops, copies, next, results);
    }
    Map<Op, Outcome> out = new EnumMap<>(Op.class);
    for (int i = 0; i < ops.size(); i++) {
      String[] r = results.get(i);
      Kind kind = Kind.valueOf(r[0]);
      Optional<IndexMetadata> after = kind == Kind.ABORTED ? safeEntry(copies.get(i), t.entryName())
          : entry(copies.get(i), t.entryName());
      EntryState state = after.isEmpty() ? (entry == null ? EntryState.ABSENT : EntryState.DROPPED)
          : after.get().equals(entry) ? EntryState.CARRIED : EntryState.CHANGED;
      String change = after.isPresent() && state == EntryState.CHANGED
          ? (entry == null ? "appeared" : diff(entry, after.get())) : "";
      List<String> missing = new ArrayList<>();
      for (String f : t.watchedFiles()) {
        if (!Files.exists(copies.get(i).resolve(f))) {
          missing.add(f);
        }
      }
      out.put(ops.get(i), new Outcome(ops.get(i), kind, r[1], state, change, missing));
    }
    return out;
  }

  /** As {@link #run(Target, List, Path, boolean)}, the entry required. */
  static Map<Op, Outcome> run(Target t, List<Op> ops, Path work) {
    return run(t, ops, work, false);
  }

  /** The index entry named {@code name} in the newest manifest of {@code dataset}, if any. */
  static Optional<IndexMetadata> entry(Path dataset, String name) {
    Manifest m = Table.at(new LocalObjectStore(dataset)).latest();
    return m.indices().stream().filter(i -> i.name().equals(name)).findFirst();
  }

  private static Optional<IndexMetadata> safeEntry(Path dataset, String name) {
    try {
      return entry(dataset, name);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  // Which entry fields changed, named, for the findings table ("bytes" when only fields Javelin
  // does not know did).
  private static String diff(IndexMetadata a, IndexMetadata b) {
    List<String> d = new ArrayList<>();
    if (!a.sameUuid(b)) {
      d.add("uuid");
    }
    if (!a.fields().equals(b.fields())) {
      d.add("fields " + a.fields() + "->" + b.fields());
    }
    if (a.datasetVersion() != b.datasetVersion()) {
      d.add("dataset_version");
    }
    if (!a.fragmentBitmap().equals(b.fragmentBitmap())) {
      d.add("bitmap");
    }
    if (!a.details().equals(b.details())) {
      d.add("details");
    }
    if (!a.indexVersion().equals(b.indexVersion())) {
      d.add("index_version " + (a.indexVersion().isPresent() ? a.indexVersion().getAsInt() : "unset") + "->"
          + (b.indexVersion().isPresent() ? b.indexVersion().getAsInt() : "unset"));
    }
    if (!a.createdAt().equals(b.createdAt())) {
      d.add("created_at");
    }
    if (!a.files().equals(b.files())) {
      d.add("files " + files(a) + "->" + files(b));
    }
    return d.isEmpty() ? "bytes" : String.join(", ", d);
  }

  // An entry's list of files, as "[path (size bytes), ...]".
  private static String files(IndexMetadata i) {
    return i.files().stream().map(f -> f.path() + " (" + f.sizeBytes() + " bytes)").toList().toString();
  }

  private static String shorten(String s, int n) {
    String one = String.valueOf(s).replace('\n', ' ').replace('|', '/');
    return one.length() <= n ? one : one.substring(0, n) + "...";
  }

  private static void copyTree(Path from, Path to) {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.collect(Collectors.toList())) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          // Modification times kept: cleanup only considers files older than the retained manifests.
          Files.copy(p, dest, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // Runs ops from index 'from' in one child; returns the index of the first op it did not finish.
  private static int runChild(Target t, List<Op> ops, List<Path> copies, int from, Map<Integer, String[]> results) {
    Path list;
    try {
      list = Files.createTempFile("tolerance", ".txt");
      StringBuilder b = new StringBuilder();
      for (int i = from; i < ops.size(); i++) {
        b.append(i).append('\t').append(ops.get(i)).append('\t').append(copies.get(i)).append('\t')
            .append(t.entryName()).append('\t').append(t.realIndex()).append('\t').append(t.filter()).append('\t')
            .append(t.oldVersion()).append('\t').append(t.entryVersion()).append('\n');
      }
      Files.writeString(list, b.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        LanceToleranceChecks.class.getName(), list.toString());
    int done = from;
    Deque<String> tail = new ArrayDeque<>();
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    Process p = null;
    int exit;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      Process child = p;
      // A hung child would block the reads below forever; kill it after the timeout.
      watchdog.schedule(() -> child.destroyForcibly(), TIMEOUT_SECONDS, TimeUnit.SECONDS);
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith(MARK)) {
            String[] parts = line.substring(MARK.length()).split(" ", 3);
            int index = Integer.parseInt(parts[0]);
            results.put(index, new String[] {parts[1], parts.length > 2 ? parts[2].replace("\\n", "\n") : ""});
            done = index + 1;
            tail.clear();
          } else {
            tail.addLast(line);
            if (tail.size() > 40) {
              tail.removeFirst();
            }
          }
        }
      }
      exit = p.waitFor();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run lance-core in a child JVM", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      watchdog.shutdownNow();
      if (p != null && p.isAlive()) {
        p.destroyForcibly();
      }
      try {
        Files.deleteIfExists(list);
      } catch (IOException e) {
        // A temporary file; the JVM's temp directory cleanup will see to it.
      }
    }
    if (done < ops.size()) {
      results.put(done, new String[] {Kind.ABORTED.name(), "exit " + exit + ": " + panic(tail)});
      return done + 1;
    }
    return done;
  }

  // The panic message lance-core printed, if any, else the last lines of output.
  private static String panic(Deque<String> tail) {
    List<String> lines = new ArrayList<>(tail);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("panicked at")) {
        StringBuilder b = new StringBuilder(lines.get(i).trim());
        for (int k = i + 1; k < Math.min(lines.size(), i + 3) && !lines.get(k).startsWith("stack backtrace")
            && !lines.get(k).startsWith("note:"); k++) {
          b.append(" ").append(lines.get(k).trim());
        }
        return b.toString();
      }
    }
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
  }

  /** The child: runs each operation listed in the file named by {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      String[] f = line.split("\t", 8);
      int index = Integer.parseInt(f[0]);
      String result;
      try (BufferAllocator allocator = new RootAllocator()) {
        result = "OK " + perform(Op.valueOf(f[1]), f[2], f[3], f[4], f[5], Long.parseLong(f[6]),
            Long.parseLong(f[7]), allocator);
      } catch (Throwable e) {
        String m = e.getClass().getSimpleName() + ": " + e.getMessage();
        result = "ERROR " + (m.length() > 2000 ? m.substring(0, 2000) + "..." : m).replace("\n", "\\n");
      }
      System.out.println(MARK + index + " " + result);
      System.out.flush();
    }
    System.exit(0);
  }

  private static String perform(Op op, String uri, String entryName, String realIndex, String filter, long oldVersion,
      long entryVersion, BufferAllocator allocator) throws Exception {
    try (org.lance.Dataset ds = org.lance.Dataset.open(uri, allocator)) {
      String summary = switch (op) {
        case SCAN -> {
          long rows = scanCount(ds, null, true);
          ds.take(List.of(0L, 1L), List.of("id")).close();
          yield "rows=" + rows;
        }
        case INDEXED_COUNT -> {
          long[] comparisons = {0};
          long indexed = scanCount(ds, filter, true, comparisons);
          long plain = scanCount(ds, filter, false);
          if (indexed != plain) {
            throw new IllegalStateException("indexed " + indexed + " != scanned " + plain);
          }
          if (comparisons[0] == 0) {
            throw new IllegalStateException("the index was not used (" + indexed + " rows)");
          }
          yield "rows=" + indexed + " count=" + ds.countRows(filter);
        }
        case DROP_INDEX_COUNT -> {
          ds.dropIndex(realIndex);
          try (org.lance.Dataset latest = org.lance.Dataset.open(uri, allocator)) {
            long[] comparisons = {0};
            long viaPlanner = scanCount(latest, filter, true, comparisons);
            long plain = scanCount(latest, filter, false);
            if (viaPlanner != plain || latest.countRows(filter) != plain) {
              throw new IllegalStateException("planner " + viaPlanner + " != scanned " + plain);
            }
            yield "rows=" + plain + " comparisons=" + comparisons[0];
          }
        }
        case LIST_INDEXES -> "indexes=" + ds.getIndexes().stream().map(i -> i.name()).sorted().toList();
        case DESCRIBE -> "described=" + ds.describeIndices().stream()
            .map(d -> d.getName() + ":" + d.getIndexType()).sorted().toList();
        case STATS_ENTRY -> "stats=" + ds.getIndexStatistics(entryName).keySet();
        case STATS_REAL -> "num_indexed_rows=" + ds.getIndexStatistics(realIndex).get("num_indexed_rows");
        case OPTIMIZE -> {
          ds.optimizeIndices(org.lance.index.OptimizeOptions.builder().build());
          yield "optimized";
        }
        case OPTIMIZE_AFTER_APPEND -> {
          append(uri, allocator);
          try (org.lance.Dataset latest = org.lance.Dataset.open(uri, allocator)) {
            latest.optimizeIndices(org.lance.index.OptimizeOptions.builder().build());
          }
          yield "appended and optimized";
        }
        case DROP_ID_COLUMN -> {
          ds.dropColumns(List.of("id"));
          yield "dropped id";
        }
        case DROP_COLUMN -> {
          ds.dropColumns(List.of("x"));
          yield "dropped x";
        }
        case APPEND -> {
          append(uri, allocator);
          yield "appended";
        }
        case DELETE -> {
          ds.delete("id % 10 = 3");
          yield "deleted";
        }
        case ADD_COLUMNS -> {
          ds.addColumns(new org.lance.schema.SqlExpressions.Builder().withExpression("doubled", "id * 2").build(),
              Optional.empty());
          yield "added";
        }
        case CREATE_INDEX -> {
          ds.createIndex(List.of("x"), org.lance.index.IndexType.BTREE, Optional.of("x_idx"),
              org.lance.index.IndexParams.builder().setScalarIndexParams(
                  org.lance.index.scalar.BTreeIndexParams.builder().build()).build(), true);
          yield "created";
        }
        case COMPACT -> {
          ds.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(1_000_000).build());
          yield "compacted";
        }
        case CLEANUP -> {
          var stats = ds.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder()
              .withBeforeVersion(ds.latestVersion()).withDeleteUnverified(true).build());
          yield "cleaned " + stats.getOldVersions() + " versions";
        }
        case STALE_DELETE -> {
          try (org.lance.Dataset old = ds.checkoutVersion(oldVersion)) {
            old.delete("id % 10 = 3");
            yield "deleted at v" + oldVersion + "+";
          }
        }
        case CHECKOUT_OLD -> {
          try (org.lance.Dataset old = ds.checkoutVersion(oldVersion)) {
            yield "old rows=" + scanCount(old, null, true) + " indexes="
                + old.getIndexes().stream().map(i -> i.name()).sorted().toList();
          }
        }
        case RESTORE -> {
          append(uri, allocator);
          try (org.lance.Dataset at = org.lance.Dataset.open(uri, allocator).checkoutVersion(entryVersion)) {
            at.restore();
          }
          yield "restored";
        }
      };
      // Whatever the operation did, the newest version must still open and scan.
      try (org.lance.Dataset latest = org.lance.Dataset.open(uri, allocator)) {
        return summary + "; latest v" + latest.version() + " rows=" + scanCount(latest, null, true);
      }
    }
  }

  private static void append(String uri, BufferAllocator allocator) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, 100_000, 100, 100);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(uri)
          .mode(org.lance.WriteParams.WriteMode.APPEND).execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private static long scanCount(org.lance.Dataset ds, String filter, boolean useIndex) throws Exception {
    return scanCount(ds, filter, useIndex, new long[1]);
  }

  private static long scanCount(org.lance.Dataset ds, String filter, boolean useIndex, long[] comparisons)
      throws Exception {
    ScanOptions.Builder b = new ScanOptions.Builder().useScalarIndex(useIndex).collectStats(true);
    if (filter != null) {
      b.filter(filter).columns(List.of("id"));
    }
    long rows = 0;
    try (var scanner = ds.newScan(b.build())) {
      try (ArrowReader r = scanner.scanBatches()) {
        while (r.loadNextBatch()) {
          rows += r.getVectorSchemaRoot().getRowCount();
        }
      }
      comparisons[0] += scanner.getStats().orElseThrow().getIndexComparisons();
    }
    return rows;
  }
}
