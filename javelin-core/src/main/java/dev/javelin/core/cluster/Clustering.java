package dev.javelin.core.cluster;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.ClusterException;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.ConcurrentRewriteException;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowLineage;
import dev.javelin.table.rowids.RowVersionSequence;
import dev.javelin.table.rowmap.RowMapSummary;
import dev.javelin.table.rowmap.RowMapWriter;
import dev.javelin.table.stablepartition.StablePartition;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionFold;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.table.stablepartition.StablePartitionValidator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * One clustering run. Checks everything it can before reading a byte; pass 1 reads only the key
 * columns and row addresses of the sources' live rows and decides each row's destination
 * ({@link Destinations}); the row map labels and, with stable row ids, each destination's ids
 * and versions follow from walking the sources' physical rows; pass 2 streams every column in
 * source order into the destinations ({@link PartitionWriter}) while that walk writes the labels
 * to a row map file on a thread of its own (pass 2's scan starts decoding while the keys sort);
 * the commit reserves the new ids, checks conservation, and lands a reordered Rewrite (one group:
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
  // A concurrent reordered rewrite replaces the entry we appended onto; we rebuild and retry.
  private static final int MAX_ENTRY_RETRIES = 5;
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

  PartitionWriter writer() {
    return writer;
  }

  ClusterResult execute() {
    Manifest m = dataset.manifest();
    List<KeyColumn.Kind> kinds = keyKinds(m);
    List<Fragment> sources = sources(m);
    long liveRows = sources.stream().mapToLong(Fragment::liveRows).sum();
    if (liveRows > Integer.MAX_VALUE - 16) {
      throw new ClusterException("Fragments " + ids(sources) + " hold " + liveRows + " live rows; one clustering "
          + "takes at most " + (Integer.MAX_VALUE - 16) + ": " + dataset.location());
    }
    if (liveRows == 0) {
      throw new ClusterException("Fragments " + ids(sources) + " hold no live rows; delete them instead of "
          + "clustering: " + dataset.location());
    }
    int destinations = Destinations.count(liveRows, target);
    if (destinations > MAX_DESTINATIONS) {
      throw new ClusterException("Clustering " + liveRows + " rows into fragments of " + target + " rows makes "
          + destinations + " destinations, more than the row map's " + MAX_DESTINATIONS + "; raise "
          + "targetRowsPerFragment: " + dataset.location());
    }
    BufferAllocator allocator = dataset.allocator().newChildAllocator("cluster", 0, Long.MAX_VALUE);
    try {
      try {
        Pass1 p1 = readKeys(sources, kinds, (int) liveRows);
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
            awaitQuietly(firstBatch);
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

  private ClusterResult afterKeys(Manifest m, List<Fragment> sources, Pass1 p1, ArrowReader data,
      Future<Boolean> firstBatch, ExecutorService side, BufferAllocator allocator) throws IOException {
    // One key orders the rows by itself (any curve over one dimension is its order).
    int[] dest = p1.keys.isEmpty() ? new int[0] : p1.keys.size() == 1
        ? Destinations.inOrder(p1.keys.get(0).order(), target) : Destinations.assign(rank(p1.keys), curve, target);
    long[] counts = new long[Destinations.count(p1.addresses.length, target)];
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
    Future<Walked> walked;
    try {
      walked = side.submit(() -> {
        try (rowMap) {
          RowLineage lineage = walk(m, sources, p1.addresses, dest, counts, new RowMapLabels(rowMap, labels));
          return new Walked(lineage, rowMap.finish());
        }
      });
    } catch (RuntimeException e) {
      rowMap.close();
      throw e;
    }
    List<Fragment> written;
    try {
      written = rewrite(sources, dest, counts, allocator, m, data, firstBatch);
    } catch (IOException | RuntimeException e) {
      abandoned = true;
      awaitQuietly(walked); // the walk has stopped writing the row map: delete it
      PendingFiles.deleteAll(dataset.store(), List.of(rowMap.path()));
      throw e;
    }
    Walked w;
    try {
      w = join(walked);
    } catch (IOException | RuntimeException e) {
      PendingFiles.deleteAll(dataset.store(), writer.keys());
      PendingFiles.deleteAll(dataset.store(), List.of(rowMap.path()));
      throw e;
    }
    List<Fragment> news = new ArrayList<>();
    for (int d = 0; d < written.size(); d++) {
      news.add(w.lineage() == null ? written.get(d) : w.lineage().next(d, written.get(d)));
    }
    return commit(m, sources, news, dest.length, entryUuid, rowMap.path(), w.summary());
  }

  private record Walked(RowLineage lineage, RowMapSummary summary) {}

  // The task's result; its exception as thrown (an interrupted wait as an InterruptedIOException).
  private <T> T join(Future<T> task) throws IOException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while clustering " + dataset.location());
    } catch (ExecutionException e) {
      Throwable t = e.getCause();
      if (t instanceof IOException io) {
        throw io;
      }
      if (t instanceof RuntimeException re) {
        throw re;
      }
      if (t instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(t);
    }
  }

  // Waits for the task to end, ignoring its outcome (the caller is failing already).
  private static void awaitQuietly(Future<?> task) {
    boolean interrupted = false;
    while (true) {
      try {
        task.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException | CancellationException e) {
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private List<KeyColumn.Kind> keyKinds(Manifest m) {
    List<KeyColumn.Kind> out = new ArrayList<>();
    for (String name : keyNames) {
      LanceField field = m.schema().fields().stream().filter(f -> f.name().equals(name)).findFirst()
          .orElseThrow(() -> new ColumnNotFoundException(dataset.location(), name));
      KeyColumn.Kind kind = KeyColumn.kindOf(field.toArrow().getType());
      if (kind == null) {
        throw new ClusterException("Column '" + name + "' is of type " + field.toArrow().getType() + ", which "
            + "clustering cannot order (integers, floats, dates, times, timestamps, durations, strings and binaries "
            + "it can): " + dataset.location());
      }
      out.add(kind);
    }
    return out;
  }

  private List<Fragment> sources(Manifest m) {
    if (fragmentIds == null) {
      if (m.fragments().isEmpty()) {
        throw new ClusterException("Version " + m.version() + " has no fragments to cluster: " + dataset.location());
      }
      return m.fragments();
    }
    List<Fragment> out = new ArrayList<>();
    for (long id : fragmentIds) {
      out.add(m.fragments().stream().filter(f -> f.id() == id).findFirst().orElseThrow(() ->
          new ClusterException("Fragment " + id + " is not in version " + m.version() + ": " + dataset.location())));
    }
    return out;
  }

  private record Pass1(List<KeyColumn> keys, long[] addresses) {}

  private Pass1 readKeys(List<Fragment> sources, List<KeyColumn.Kind> kinds, int expected) throws IOException {
    List<KeyColumn> keys = new ArrayList<>();
    kinds.forEach(k -> keys.add(new KeyColumn(k, expected)));
    long[] addresses = new long[expected];
    int n = 0;
    try (ArrowReader r = dataset.newScan().columns(keyNames).withRowAddress().fragments(sources)
        .batchSize(batchSize).build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        int rows = root.getRowCount();
        for (int j = 0; j < keys.size(); j++) {
          keys.get(j).append(root.getVector(j), rows);
        }
        UInt8Vector addr = (UInt8Vector) root.getVector(keys.size());
        if (n + rows > addresses.length) {
          addresses = Arrays.copyOf(addresses, Math.max(n + rows, addresses.length * 2));
        }
        // One bulk copy of the batch's addresses (never null) instead of a call per row.
        addr.getDataBuffer().nioBuffer(0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer()
            .get(addresses, n, rows);
        n += rows;
      }
    }
    return new Pass1(n == 0 ? List.of() : keys, Arrays.copyOf(addresses, n));
  }

  private static List<KeyColumn.Ranked> rank(List<KeyColumn> keys) {
    List<KeyColumn.Ranked> out = new ArrayList<>();
    keys.forEach(k -> out.add(k.rank()));
    return out;
  }

  // Walks every physical row of the sources in order: a row whose address the scan returned is
  // live and labelled with its destination, any other was deleted. With stable row ids, the
  // walk also hands each destination its rows' ids and versions, in the destination's order.
  private RowLineage walk(Manifest m, List<Fragment> sources, long[] addresses, int[] dest, long[] counts,
      LabelSink labels) throws IOException {
    boolean stable = (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
    RowLineage lineage = stable ? new RowLineage(counts) : null;
    int k = 0;
    long deleted = 0;
    for (Fragment f : sources) {
      RowIdSequence ids = null;
      Optional<RowVersionSequence> created = Optional.empty();
      Optional<RowVersionSequence> updated = Optional.empty();
      if (stable) {
        ids = f.rowIdSequence(dataset.store()).orElseThrow(() -> new ClusterException("Fragment " + f.id()
            + " has no row ids but the dataset has stable row ids: " + dataset.location()));
        created = f.createdAtVersions(dataset.store());
        updated = f.lastUpdatedAtVersions(dataset.store());
      }
      for (long o = 0; o < f.physicalRows(); o++) {
        if ((o & 0xFFFF) == 0 && abandoned) {
          throw new CancellationException("Pass 2 failed: the row map of " + dataset.location() + " is abandoned");
        }
        if (k < addresses.length && addresses[k] == ((f.id() << 32) | o)) {
          if (labels != null) {
            labels.label(dest[k]);
          }
          if (lineage != null) {
            lineage.add(dest[k], ids.get(o), created.isPresent() ? created.get().get(o) : RowLineage.NONE,
                updated.isPresent() ? updated.get().get(o) : RowLineage.NONE);
          }
          k++;
        } else {
          if (labels != null) {
            labels.deleted();
          }
          deleted++;
        }
      }
    }
    if (k != addresses.length) {
      throw new IllegalStateException("The scan of fragments " + ids(sources) + " returned row address "
          + Long.toHexString(addresses[k]) + " out of physical order: " + dataset.location());
    }
    if (labels != null) {
      labels.close(counts.clone(), deleted);
    }
    return lineage;
  }

  // Pass 2 over the reader opened (and its first batch loaded by firstBatch) while the keys were sorted.
  private List<Fragment> rewrite(List<Fragment> sources, int[] dest, long[] counts, BufferAllocator allocator,
      Manifest m, ArrowReader r, Future<Boolean> firstBatch) throws IOException {
    writer = new PartitionWriter(dataset.store(), m.schema(), m.fileVersion(), allocator, counts, batchSize);
    try (PartitionWriter w = writer) {
      int first = 0;
      boolean more = join(firstBatch);
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (more) {
        w.accept(root, dest, first);
        first += root.getRowCount();
        more = r.loadNextBatch();
      }
      if (first != dest.length) {
        throw new IllegalStateException("The second read of fragments " + ids(sources) + " returned " + first
            + " rows, the first " + dest.length + ": " + dataset.location());
      }
      return w.fragments();
    } catch (IOException | RuntimeException e) {
      writer.deleteAll();
      throw e;
    }
  }

  private ClusterResult commit(Manifest read, List<Fragment> sources, List<Fragment> written, long rows,
      String entryUuid, String rowMapPath, RowMapSummary summary) {
    Table table = Table.at(dataset.store());
    // The data files and the row map: deleted unless the rewrite commits.
    try (PendingFiles keys = new PendingFiles(dataset.store())) {
      keys.addAll(writer.keys());
      keys.add(rowMapPath);
      List<Fragment> news = new ArrayList<>();
      if (!written.isEmpty()) {
        Manifest reserved = table.newCommit(Transaction.reserveFragments(table.latest().version(), written.size()))
            .commit();
        long next = reserved.maxFragmentId().getAsLong() - written.size() + 1;
        for (Fragment f : written) {
          news.add(f.withId(next++));
        }
      }
      List<StablePartitionTransition.Source> from = new ArrayList<>();
      sources.forEach(f -> from.add(StablePartitionTransition.Source.of(f)));
      StablePartitionTransition transition = new StablePartitionTransition(read.version(), from, ids(news), rowMapPath);
      StablePartitionValidator.validate(transition, summary, news);
      // What an attempt changes for the next: the entry's uuid and the transition (its row map may move).
      String[] uuidOf = {entryUuid};
      StablePartitionTransition[] built = {transition};
      Manifest done = Tasks.retry().maxAttempts(MAX_ENTRY_RETRIES).retryOn(ConcurrentRewriteException.class)
          .run(attempt -> {
            StablePartition sp;
            try {
              // Appended onto the newest entry: a concurrent reordered rewrite that landed since the
              // read is kept, not overwritten (the commit rejects a stale base, and we rebuild).
              Manifest latest = table.latest();
              String uuid = StablePartition.entryUuidFor(latest);
              if (StablePartitionEntry.find(latest).isPresent() && !uuid.equals(uuidOf[0])) {
                // A concurrent first clustering created the entry under another uuid: move our row map there.
                String path = built[0].rowMapPath();
                String moved = StablePartitionEntry.directory(uuid) + path.substring(path.lastIndexOf('/'));
                dataset.store().put(moved, dataset.store().read(path));
                keys.add(moved);
                keys.discard(path);
                uuidOf[0] = uuid;
                built[0] = new StablePartitionTransition(built[0].datasetVersion(), built[0].sources(),
                    built[0].destinations(), moved);
              }
              sp = StablePartition.appendTo(latest, built[0], dataset.store(), uuidOf[0]);
            } catch (IOException e) {
              throw new UncheckedIOException("Writing the stable partition entry failed: " + dataset.location(), e);
            }
            Transaction txn = Transaction.reorderedRewrite(read.version(), List.of(sources), List.of(news), sp);
            if (beforeCommit != null) {
              beforeCommit.run();
            }
            // Deletes of source rows committed since the read are folded into the destinations.
            return table.newCommit(txn).cleanupOnFailure(sp.writtenFiles())
                .rebase(new StablePartitionFold(table, dataset.allocator())).commit();
          });
      keys.commit();
      Dataset at = Dataset.open(dataset.store(), dataset.allocator()).checkout(done.version());
      return new ClusterResult(at, ids(sources), ids(news), rows);
    }
  }

  /** Sends the labels to the row map file, and to a test's sink when there is one. */
  private static final class RowMapLabels implements LabelSink {
    private final RowMapWriter out;
    private final LabelSink also;

    RowMapLabels(RowMapWriter out, LabelSink also) {
      this.out = out;
      this.also = also;
    }

    @Override
    public void label(int destinationIndex) {
      try {
        out.append(destinationIndex);
      } catch (IOException e) {
        throw new UncheckedIOException("Writing the row map failed: " + out.path(), e);
      }
      if (also != null) {
        also.label(destinationIndex);
      }
    }

    @Override
    public void deleted() {
      try {
        out.appendDeleted();
      } catch (IOException e) {
        throw new UncheckedIOException("Writing the row map failed: " + out.path(), e);
      }
      if (also != null) {
        also.deleted();
      }
    }

    @Override
    public void close(long[] perDestination, long deletedRows) {
      if (also != null) {
        also.close(perDestination, deletedRows);
      }
    }
  }

  private static List<Long> ids(List<Fragment> fragments) {
    List<Long> out = new ArrayList<>();
    fragments.forEach(f -> out.add(f.id()));
    return out;
  }
}
