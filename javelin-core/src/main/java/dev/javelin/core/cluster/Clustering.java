package dev.javelin.core.cluster;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import dev.javelin.common.ProgressStage;
import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.rowmap.RowMapWriter;
import dev.javelin.table.stablepartition.StablePartition;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionFold;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * One clustering run, in steps of their own. Checks everything it can before reading a byte
 * ({@link ClusterChecks}); pass 1 ({@link KeyPass}) reads only the key
 * columns and row addresses of the sources' live rows and decides each row's destination
 * ({@link Destinations}); the row map labels and, with stable row ids, each destination's ids
 * and versions follow from walking the sources' physical rows ({@link RowMapWalk}); pass 2
 * ({@link DataPass}) streams every column in
 * source order into the destinations ({@link PartitionWriter}) while that walk writes the labels
 * to a row map file on a thread of its own (pass 2's scan starts decoding while the keys sort);
 * the commit ({@link ClusterCommit}) reserves the new ids, checks conservation, and lands a reordered Rewrite (one group:
 * all sources to all destinations) carrying the stable partition transition, so indices keep
 * their bitmaps on the retired source ids instead of being refused. Rows of the sources deleted by
 * a commit that lands meanwhile (a Delete, or a row-rewriting Update's deletions) are deleted from
 * the destinations through the row map ({@link StablePartitionFold}); a concurrent clustering of
 * other fragments makes the commit rebuild the entry on it and retry.
 *
 * <p>Memory: pass 1 holds a few words per live row (address, key, ranks, destination), the
 * price of a global order; pass 2 holds a few batches of row data besides the writers' page buffers.
 */
final class Clustering {
  /** Row map labels are UInt16: at most this many destinations per rewrite. */
  static final int MAX_DESTINATIONS = 65536;
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Dataset dataset;
  private final List<String> keyNames;
  private final Curve curve;
  private final long target;
  private final List<Long> fragmentIds;
  private final int batchSize;
  private final LabelSink labels;
  private PartitionWriter writer;
  // Set when pass 2 failed: the row map walk stops early instead of finishing a file to delete.
  private volatile boolean abandoned;
  // Tests: runs after each attempt's entry is built, before its commit (a concurrent writer's slot).
  private Runnable beforeCommit;
  private ProgressListener progress = ProgressListener.NONE;

  Clustering(Dataset dataset, List<String> keyNames, Curve curve, long target, List<Long> fragmentIds,
      int batchSize, LabelSink labels) {
    this.dataset = dataset;
    this.keyNames = keyNames;
    this.curve = curve;
    this.target = target;
    this.fragmentIds = fragmentIds;
    this.batchSize = batchSize;
    this.labels = labels;
  }

  /** Runs {@code hook} after each attempt's entry is built and before it commits (tests race there). */
  Clustering beforeCommit(Runnable hook) {
    this.beforeCommit = hook;
    return this;
  }

  /** Reports each pass's rows to {@code listener}. */
  Clustering progress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  PartitionWriter writer() {
    return writer;
  }

  ClusterResult execute() {
    Manifest m = dataset.manifest();
    ClusterChecks.Checked checked = ClusterChecks.check(dataset.location(), m, keyNames, fragmentIds, target);
    List<Fragment> sources = checked.sources();
    BufferAllocator allocator = dataset.allocator().newChildAllocator("cluster", 0, Long.MAX_VALUE);
    try {
      try {
        KeyPass p1;
        try (ProgressStage keys = ProgressStage.start(progress, "cluster", "pass 1 of 2: read and sort keys",
            checked.liveRows(), Progress.Unit.ROWS)) {
          p1 = KeyPass.read(dataset, sources, keyNames, checked.kinds(), checked.liveRows(), batchSize, keys);
        }
        ExecutorService side = Executors.newFixedThreadPool(2, r -> {
          Thread t = new Thread(r, "javelin-cluster-side-" + THREADS.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
        try (ArrowReader data = dataset.newScan().fragments(sources).batchSize(batchSize).build()) {
          // Pass 2's scan decodes its first batches on its own threads while the keys are sorted.
          Future<Boolean> firstBatch = side.submit(data::loadNextBatch);
          try {
            return afterKeys(m, sources, p1, data, firstBatch, side, allocator);
          } finally {
            // The reader is not shared: its first batch is loaded (or failed) before it closes.
            Tasks.awaitQuietly(firstBatch);
          }
        } finally {
          side.shutdown();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Clustering fragments " + ids(sources) + " failed: " + dataset.location(), e);
      }
    } finally {
      allocator.close();
    }
  }

  private ClusterResult afterKeys(Manifest m, List<Fragment> sources, KeyPass p1, ArrowReader data,
      Future<Boolean> firstBatch, ExecutorService side, BufferAllocator allocator) throws IOException {
    int[] dest = p1.destinations(curve, target);
    long[] addresses = p1.addresses();
    long[] counts = new long[Destinations.count(addresses.length, target)];
    for (int d : dest) {
      counts[d]++;
    }
    // Row maps live in the entry's directory, kept (by lance-core's cleanup too) while the entry is.
    String entryUuid = StablePartition.entryUuidFor(Table.at(dataset.store()).latest());
    // Created here, before any data file, so a failure to create it leaves nothing to delete.
    RowMapWriter rowMap = RowMapWriter.create(dataset.store(), StablePartitionEntry.directory(entryUuid),
        counts.length, m.fileVersion(), allocator);
    // The labels are known now: the row map (and the row ids of stable row id datasets) is written
    // on its own thread while pass 2 writes the data, instead of before it on this one.
    Future<RowMapWalk.Walked> walked;
    try {
      walked = side.submit(() -> RowMapWalk.write(dataset, rowMap, m, sources, addresses, dest, counts, labels,
          () -> abandoned));
    } catch (RuntimeException e) {
      rowMap.close();
      throw e;
    }
    List<Fragment> written;
    try {
      writer = new PartitionWriter(dataset.store(), m.schema(), m.fileVersion(), allocator, counts, batchSize);
      try (ProgressStage rows = ProgressStage.start(progress, "cluster", "pass 2 of 2: write rows in order",
          dest.length, Progress.Unit.ROWS)) {
        written = DataPass.rewrite(dataset.location(), writer, sources, dest, data, firstBatch, rows);
      }
    } catch (IOException | RuntimeException e) {
      abandoned = true;
      Tasks.awaitQuietly(walked); // the walk has stopped writing the row map: delete it
      PendingFiles.deleteAll(dataset.store(), List.of(rowMap.path()));
      throw e;
    }
    RowMapWalk.Walked w;
    try {
      w = join(walked, dataset.location());
    } catch (IOException | RuntimeException e) {
      PendingFiles.deleteAll(dataset.store(), writer.keys());
      PendingFiles.deleteAll(dataset.store(), List.of(rowMap.path()));
      throw e;
    }
    List<Fragment> news = new ArrayList<>();
    for (int d = 0; d < written.size(); d++) {
      news.add(w.lineage() == null ? written.get(d) : w.lineage().next(d, written.get(d)));
    }
    return new ClusterCommit(dataset, beforeCommit).commit(m, sources, news, writer.keys(), dest.length, entryUuid,
        rowMap.path(), w.summary());
  }

  // The task's result; its exception as thrown (an interrupted wait as an InterruptedIOException).
  static <T> T join(Future<T> task, String location) throws IOException {
    return Tasks.join(task, "clustering " + location);
  }

  static List<Long> ids(List<Fragment> fragments) {
    List<Long> out = new ArrayList<>();
    fragments.forEach(f -> out.add(f.id()));
    return out;
  }
}
