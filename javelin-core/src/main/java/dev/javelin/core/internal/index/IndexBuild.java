package dev.javelin.core.internal.index;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import dev.javelin.common.ProgressStage;
import dev.javelin.core.Dataset;
import dev.javelin.core.OptimizedIndex;
import dev.javelin.core.exceptions.IndexExistsException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfParams;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.IvfHnswSqIndex;
import dev.javelin.index.internal.zonemap.ZoneMapIndex;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds indices and commits them, the same way for every kind: resolve the column, apply the
 * name rules, read the live rows with the ids indices store ({@link IndexRowIds#scan}), hand them
 * to the kind's builder ({@link IndexKind}), write its files under {@code _indices/<uuid>/}, make
 * the entry and commit a CreateIndex, deleting the written files if anything fails. Optimize
 * extends every index the same way.
 */
public final class IndexBuild {
  private IndexBuild() {}

  /**
   * Builds an index of {@code type} over {@code column} from every live row and commits it.
   *
   * @param name the index name, or null for Lance's default {@code {column}_idx}
   * @param replace whether an index of the same name may be replaced
   * @throws UnsupportedOperationException if Javelin cannot build indices of {@code type}
   * @throws IllegalArgumentException if the column cannot be indexed
   * @throws IndexExistsException if the name is taken and {@code replace} is false
   */
  public static Manifest create(Dataset ds, Table table, String column, IndexType type, String name, boolean replace,
      ProgressListener progress, BufferAllocator allocator) {
    IndexKind kind = IndexKind.of(type);
    if (kind == null) {
      throw new UnsupportedOperationException("Javelin cannot build " + type + " indices yet: " + ds.location());
    }
    return create(ds, table, column, kind, name, replace, progress, allocator);
  }

  /**
   * Builds an IVF_PQ index over a {@code fixed_size_list<float32>} column and commits it.
   *
   * @param params the build parameters, or null for Lance's defaults for the column
   */
  public static Manifest createVector(Dataset ds, Table table, String column, IvfPqParams params, String name,
      boolean replace, ProgressListener progress, BufferAllocator allocator) {
    return create(ds, table, column, new IvfPqKind(params), name, replace, progress, allocator);
  }

  /**
   * Builds an IVF_FLAT (vectors stored as they are), IVF_SQ (8-bit scalar quantization) or
   * IVF_HNSW_SQ (the same with an HNSW graph per partition: {@code hnsw} not null) index over a
   * {@code fixed_size_list<float32>} column and commits it.
   */
  public static Manifest createIvf(Dataset ds, Table table, String column, boolean ivfFlat, IvfParams params,
      IvfHnswSqIndex.HnswParams hnsw, String name, boolean replace, ProgressListener progress,
      BufferAllocator allocator) {
    IndexKind kind = ivfFlat ? new IvfFlatKind(params) : new IvfSqKind(params, hnsw);
    return create(ds, table, column, kind, name, replace, progress, allocator);
  }

  /**
   * Builds a zone map over {@code column} with zones of {@code rowsPerZone} rows (0: Lance's
   * default, 8,192) and commits it.
   */
  public static Manifest createZoneMap(Dataset ds, Table table, String column, long rowsPerZone, String name,
      boolean replace, ProgressListener progress, BufferAllocator allocator) {
    return create(ds, table, column, new ZoneMapKind(rowsPerZone), name, replace, progress, allocator);
  }

  /**
   * The rows per zone of the zone map named {@code name} ({@link ZoneMapIndex#DEFAULT_ROWS_PER_ZONE}
   * when its file does not say).
   *
   * @throws IllegalArgumentException if there is no zone map of that name
   */
  public static long zoneMapRowsPerZone(Dataset ds, String name) {
    for (IndexMetadata i : ds.manifest().indices()) {
      if (i.name().equals(name) && IndexType.fromDetailsTypeUrl(i.details().typeUrl()) == IndexType.ZONEMAP) {
        try {
          return ZoneMapIndex.open(ds.manifest().basePaths().indexStore(ds.store(), i), directory(i.uuid()),
              ds.allocator()).rowsPerZone();
        } catch (IOException e) {
          throw new UncheckedIOException("Reading zone map '" + name + "' failed: " + ds.location(), e);
        }
      }
    }
    throw new IllegalArgumentException("No zone map named '" + name + "': " + ds.location());
  }

  /**
   * Builds a bloom filter index over {@code column}, zones of {@code items} rows each with a filter
   * for that many values at false positive rate {@code probability} (0: Lance's defaults, 8,192
   * and 0.00057), and commits it.
   */
  public static Manifest createBloomFilter(Dataset ds, Table table, String column, long items, double probability,
      String name, boolean replace, ProgressListener progress, BufferAllocator allocator) {
    return create(ds, table, column, new BloomFilterKind(items, probability), name, replace, progress, allocator);
  }

  static Manifest create(Dataset ds, Table table, String column, IndexKind kind, String name, boolean replace,
      ProgressListener progress, BufferAllocator allocator) {
    LanceField field = kind.field(ds, column);
    String indexName = name == null ? column + "_idx" : name;
    Manifest m = ds.manifest();
    List<IndexMetadata> removed = new ArrayList<>();
    for (IndexMetadata existing : m.indices()) {
      if (existing.name().equals(indexName)) {
        if (!replace) {
          throw new IndexExistsException(ds.location(), indexName);
        }
        removed.add(existing);
      }
    }
    String uuid = UUID.randomUUID().toString();
    List<String> written = files(kind, uuid);
    boolean committed = false;
    try {
      List<Fragment> fragments = m.fragments();
      IndexMetadata.Builder entry = IndexMetadata.builder();
      long rows = fragments.stream().mapToLong(Fragment::liveRows).sum();
      String operation = "create index " + indexName;
      try (IndexKind.Builder b = kind.create(ds, field, allocator)) {
        for (int pass = 0; pass < b.passes(); pass++) {
          b.startPass(pass);
          String stage = b.passes() == 1 ? "read rows" : "pass " + (pass + 1) + " of " + b.passes() + ": read rows";
          try (ProgressStage read = ProgressStage.start(progress, operation, stage, rows, Progress.Unit.ROWS)) {
            IndexRowIds.scan(ds, fragments, field, allocator, (values, ids, n) -> {
              b.add(values, ids, n);
              read.advance(n);
            });
          }
        }
        try (ProgressStage write = ProgressStage.start(progress, operation, "write index files", 1,
            Progress.Unit.FILES)) {
          entry.files(b.write(ds.store(), directory(uuid)));
          write.advance(1);
        }
        b.describe(entry);
      }
      RoaringBitmap covered = new RoaringBitmap();
      for (Fragment f : fragments) {
        covered.add((int) f.id());
      }
      entry.uuid(uuid)
          .fields(List.of(field.id()))
          .name(indexName)
          .datasetVersion(m.version())
          .fragmentBitmap(covered)
          .createdAt(System.currentTimeMillis());
      Transaction txn = Transaction.createIndex(m.version(), List.of(entry.build()), removed);
      committed = true;
      return table.newCommit(txn).cleanupOnFailure(written).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Creating index '" + indexName + "' failed: " + ds.location(), e);
    } catch (RuntimeException e) {
      throw kind.buildFailed(e, indexName, column, ds.location());
    } finally {
      if (!committed) {
        PendingFiles.deleteAll(ds.store(), written);
      }
    }
  }

  /** What {@link #optimize} committed ({@code manifest} is the read one when nothing) and its report. */
  public record Optimized(Manifest manifest, List<OptimizedIndex> report) {}

  /**
   * Brings every index up to date with the fragments added since it was built (Lance's
   * incremental optimize, merged into one index per name): for each index name, one new index
   * replaces its entries (the index and any delta indices), holding their still-live rows and the
   * rows of the fragments none of them covers, as its kind extends it ({@link IndexKind#extend}).
   * An index of one entry covering every fragment is left alone, and so is one Javelin cannot
   * update (reported as skipped, with the reason). Everything changed commits as one CreateIndex.
   */
  public static Optimized optimize(Dataset ds, Table table, BufferAllocator allocator) {
    Manifest m = ds.manifest();
    Map<String, List<IndexMetadata>> byName = new LinkedHashMap<>();
    for (IndexMetadata i : m.indices()) {
      if (!i.isSystem()) {
        byName.computeIfAbsent(i.name(), k -> new ArrayList<>()).add(i);
      }
    }
    List<OptimizedIndex> report = new ArrayList<>();
    List<IndexMetadata> added = new ArrayList<>();
    List<IndexMetadata> removed = new ArrayList<>();
    List<String> written = new ArrayList<>();
    boolean committed = false;
    try {
      for (var e : byName.entrySet()) {
        String name = e.getKey();
        List<IndexMetadata> entries = e.getValue();
        IndexMetadata first = entries.get(0);
        IndexType type = IndexType.fromDetailsTypeUrl(first.details().typeUrl());
        IndexKind kind = IndexKind.of(type);
        RoaringBitmap covered = new RoaringBitmap();
        entries.forEach(i -> covered.or(i.fragmentBitmap()));
        List<Fragment> fresh = new ArrayList<>();
        List<Long> freshIds = new ArrayList<>();
        for (Fragment f : m.fragments()) {
          if (!covered.contains((int) f.id())) {
            fresh.add(f);
            freshIds.add(f.id());
          }
        }
        List<Integer> fields = first.fields();
        LanceField field = fields.size() == 1 ? fieldById(ds, fields.get(0)) : null;
        String skip = kind == null ? "Javelin cannot update this kind of index (" + first.details().typeUrl() + ")"
            : fields.size() != 1 ? "Javelin updates indices of one column only"
            : field == null ? "its column (field id " + fields.get(0) + ") is not in the schema" : null;
        if (skip == null && fresh.isEmpty() && entries.size() == 1) {
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.UNCHANGED, List.of(), 0, 0, 0, ""));
          continue;
        }
        if (skip != null) {
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.SKIPPED, List.of(), 0, 0, 0, skip));
          continue;
        }
        String uuid = UUID.randomUUID().toString();
        List<String> files = files(kind, uuid);
        written.addAll(files);
        long[] counts = new long[2];
        IndexMetadata entry;
        try {
          entry = extend(ds, kind, entries, field, fresh, uuid, counts, allocator);
        } catch (RuntimeException unreadable) {
          String reason = kind.skipReason(unreadable);
          if (reason == null) {
            throw unreadable;
          }
          PendingFiles.deleteAll(ds.store(), files);
          written.removeAll(files);
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.SKIPPED, List.of(), 0, 0, 0, reason));
          continue;
        }
        added.add(entry);
        report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.MERGED, freshIds, counts[0], counts[1],
            entries.size(), ""));
        removed.addAll(entries);
      }
      if (added.isEmpty()) {
        committed = true;
        return new Optimized(m, report);
      }
      Transaction txn = Transaction.createIndex(m.version(), added, removed);
      committed = true;
      return new Optimized(table.newCommit(txn).cleanupOnFailure(written).commit(), report);
    } catch (IOException e) {
      throw new UncheckedIOException("Optimizing indices failed: " + ds.location(), e);
    } finally {
      if (!committed) {
        PendingFiles.deleteAll(ds.store(), written);
      }
    }
  }

  /**
   * Writes the index replacing {@code entries} (its files under {@code _indices/<uuid>/}) and
   * returns its entry; the rows it added and dropped go to {@code counts[0]} and {@code counts[1]}.
   */
  private static IndexMetadata extend(Dataset ds, IndexKind kind, List<IndexMetadata> entries, LanceField field,
      List<Fragment> fresh, String uuid, long[] counts, BufferAllocator allocator) throws IOException {
    Manifest m = ds.manifest();
    IndexKind.Extension x = kind.extend(ds, entries, field, fresh, allocator);
    IndexMetadata.Builder entry = entries.get(0).renewed(uuid);
    try (IndexKind.Builder b = x.builder()) {
      IndexRowIds.scan(ds, x.scan(), field, allocator, b::add);
      entry.files(b.write(ds.store(), directory(uuid)));
      b.describe(entry);
      counts[0] = b.rowsAdded();
      counts[1] = b.rowsDropped();
    }
    // The entries' fragments still in the dataset, and the fresh ones.
    RoaringBitmap covered = new RoaringBitmap();
    entries.forEach(i -> covered.or(i.fragmentBitmap()));
    RoaringBitmap now = new RoaringBitmap();
    for (Fragment f : m.fragments()) {
      if (covered.contains((int) f.id())) {
        now.add((int) f.id());
      }
    }
    for (Fragment f : fresh) {
      now.add((int) f.id());
    }
    return entry.datasetVersion(m.version())
        .fragmentBitmap(now)
        .createdAt(System.currentTimeMillis())
        .build();
  }

  private static LanceField fieldById(Dataset ds, int id) {
    for (LanceField f : ds.schema().fields()) {
      if (f.id() == id) {
        return f;
      }
    }
    return null;
  }

  /** The directory of an index's files: {@code _indices/<uuid>}. */
  static String directory(String uuid) {
    return "_indices/" + uuid;
  }

  // The keys of the files a build of `kind` writes for index `uuid`.
  private static List<String> files(IndexKind kind, String uuid) {
    List<String> out = new ArrayList<>();
    kind.fileNames().forEach(f -> out.add(directory(uuid) + "/" + f));
    return out;
  }
}
