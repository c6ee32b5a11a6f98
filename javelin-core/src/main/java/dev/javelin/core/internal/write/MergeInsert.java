package dev.javelin.core.internal.write;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.MergeInsertPlan;
import dev.javelin.core.MergeInsertResult;
import dev.javelin.core.ScanBuilder;
import dev.javelin.core.WriteParams;
import dev.javelin.core.exceptions.MergeInsertException;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.scan.Take;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.index.internal.scalar.ScalarIndex;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.ConflictRules;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.DeletionMerge;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowids.RowLineage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Lance's merge insert (upsert): source rows are matched to target rows by key columns, and
 * per clause matched target rows are replaced by their source row, deleted, left, or make the
 * merge fail; unmatched source rows are inserted or dropped; target rows no source row matched
 * are kept or deleted (optionally only where a condition holds). Committed as one Update in
 * {@code REWRITE_ROWS} mode, as lance-core commits it: replaced rows are written with the
 * inserted ones to new fragments and deleted where they were, so indices stay correct as after
 * any update, and with stable row ids a replaced row keeps its id and created-at version.
 *
 * <p>The source is read once ({@link MergeSource}: its key set on the heap, its rows spilled to a
 * temporary file); the target is streamed past the key set, reading only the key columns (and the
 * columns a condition uses), through a BTree index on the key when one exists. A merge that
 * loses a race against a commit that may have made its matches stale is run again on the newest
 * version ({@link ConflictRules#MERGE_INSERT_READ}), up to a number of attempts and a timeout.
 */
public final class MergeInsert {
  /** What happens to a target row whose key a source row has. */
  public enum Matched { UPDATE_ALL, DELETE, DO_NOTHING, FAIL }

  /** What happens to a source row whose key no target row has. */
  public enum NotMatched { INSERT_ALL, DO_NOTHING }

  /** What happens to a target row whose key no source row has. */
  public enum BySource { KEEP, DELETE }

  /**
   * A merge insert's clauses.
   *
   * @param on the key columns
   * @param matchedIf with {@link Matched#UPDATE_ALL}, the condition (over {@code target.x} and
   *     {@code source.x}) a matched pair must meet to be updated, or null
   * @param bySourceIf with {@link BySource#DELETE}, the condition (over the target's columns) an
   *     unmatched target row must meet to be deleted, or null
   * @param useIndex whether a BTree or bitmap index on the key may be used to find matches
   * @param spillDirectory where the source's rows are spilled while the merge runs
   */
  public record Spec(List<String> on, Matched matched, String matchedIf, NotMatched notMatched, BySource bySource,
      String bySourceIf, boolean useIndex, int conflictRetries, Duration retryTimeout, Path spillDirectory) {}

  private static final String TARGET = "target";
  private static final String SOURCE = "source";
  private static final String ROW_ADDR = "_rowaddr";
  private static final String ROW_ID = "_rowid";
  private static final String CREATED_AT = "_row_created_at_version";

  private MergeInsert() {}

  /**
   * Runs the merge: reads the source, then tries on {@code ds} and, after a lost race, on the
   * newest version.
   */
  public static MergeInsertResult run(Dataset ds, ArrowReader source, Spec spec) {
    check(ds, spec);
    long deadline = System.nanoTime() + spec.retryTimeout().toNanos();
    try (MergeSource src = MergeSource.read(source, ds.schema(), spec.on(), ds.allocator(),
        spec.spillDirectory(), ds.location())) {
      Dataset[] at = {ds};
      int[] attempts = {0};
      Counts counts = Tasks.retry().maxAttempts(spec.conflictRetries() + 1).retryOn(CommitConflictException.class)
          .retryIf(e -> System.nanoTime() < deadline && Updater.retryable(at[0].table(), (CommitConflictException) e))
          .run(n -> {
            attempts[0] = n;
            if (n > 1) {
              at[0] = at[0].checkoutLatest();
            }
            return once(at[0], src, spec);
          });
      return new MergeInsertResult(counts.dataset, counts.inserted, counts.updated, counts.deleted, attempts[0],
          counts.plan);
    }
  }

  /** Checks the clauses against the dataset before anything is read. */
  private static void check(Dataset ds, Spec spec) {
    Schema target = ds.schema().toArrow();
    MergeSource.keyColumns(target, spec.on(), ds.location());
    if (spec.matchedIf() != null) {
      bindMatched(spec.matchedIf(), target, target);
    }
    if (spec.bySourceIf() != null) {
      Expression.parse(spec.bySourceIf()).bindFilter(target);
    }
  }

  /**
   * How the merge would find its matches in version {@code at}, without reading the source.
   */
  public static MergeInsertPlan plan(Dataset at, Spec spec) {
    return plan(at, spec, chooseIndex(at, spec));
  }

  /** The index that finds the matches in version {@code at}, or why there is none. */
  private record IndexChoice(IndexInfo index, String note) {}

  private static IndexChoice chooseIndex(Dataset at, Spec spec) {
    Schema target = at.schema().toArrow();
    MergeSource.keyColumns(target, spec.on(), at.location());
    List<Long> live = new ArrayList<>();
    at.manifest().fragments().forEach(f -> live.add(f.id()));
    String note = null;
    IndexInfo index = null;
    if (!spec.useIndex()) {
      note = "indices turned off";
    } else if (spec.on().size() != 1) {
      note = "the key has " + spec.on().size() + " columns";
    } else if (spec.bySource() == BySource.DELETE) {
      note = "when not matched by source delete reads every row";
    } else if (!indexableKey(target.findField(spec.on().get(0)).getType())) {
      note = "the key's type has no index lookup";
    } else if (UpdateReads.stableRowIds(at.manifest())) {
      note = "with stable row ids indices hold row ids, not addresses";
    } else {
      for (IndexInfo i : at.indices()) {
        // An index that finds exactly the matching rows, whose addresses are then read directly
        // (zone maps and bloom filters would read whole zones for every key). Fragments it covers
        // only through a reordered rewrite's row map are scanned.
        if (i.type().isExact() && i.fields().equals(spec.on())
            && live.stream().anyMatch(id -> i.fragments().contains(id))) {
          index = i;
          break;
        }
      }
      if (index == null) {
        note = "no BTree or bitmap index on " + spec.on().get(0);
      }
    }
    return new IndexChoice(index, note);
  }

  private static MergeInsertPlan plan(Dataset at, Spec spec, IndexChoice choice) {
    IndexInfo index = choice.index();
    List<Long> live = new ArrayList<>();
    at.manifest().fragments().forEach(f -> live.add(f.id()));
    List<Long> indexed = new ArrayList<>();
    List<Long> scanned = new ArrayList<>();
    for (long id : live) {
      if (index != null && index.fragments().contains(id)) {
        indexed.add(id);
      } else {
        scanned.add(id);
      }
    }
    return new MergeInsertPlan(spec.on(), clause(spec.matched(), spec.matchedIf()), notMatched(spec.notMatched()),
        bySource(spec.bySource(), spec.bySourceIf()), index == null ? null : index.name(),
        index == null ? null : index.type().name().toLowerCase(Locale.ROOT), indexed, scanned, choice.note());
  }

  private static boolean indexableKey(ArrowType t) {
    return (t instanceof ArrowType.Int i && i.getIsSigned()) || t instanceof ArrowType.Utf8
        || t instanceof ArrowType.LargeUtf8;
  }

  private static String clause(Matched m, String cond) {
    return switch (m) {
      case UPDATE_ALL -> cond == null ? "update all" : "update all if " + cond;
      case DELETE -> "delete";
      case DO_NOTHING -> "do nothing";
      case FAIL -> "fail";
    };
  }

  private static String notMatched(NotMatched m) {
    return m == NotMatched.INSERT_ALL ? "insert all" : "do nothing";
  }

  private static String bySource(BySource b, String cond) {
    return b == BySource.KEEP ? "keep" : cond == null ? "delete" : "delete if " + cond;
  }

  // The update condition is bound against a view of both sides: a struct column "target" with the
  // target's columns and one "source" with the source's, so target.x and source.x are field
  // references of the existing language.
  private static BoundExpression bindMatched(String cond, Schema targetColumns, Schema sourceColumns) {
    Schema both = new Schema(List.of(
        new Field(TARGET, FieldType.notNullable(ArrowType.Struct.INSTANCE), targetColumns.getFields()),
        new Field(SOURCE, FieldType.notNullable(ArrowType.Struct.INSTANCE), sourceColumns.getFields())));
    return Expression.parse(cond).bindFilter(both);
  }

  /** The target columns an update condition names ({@code target.x}, {@code target.`x`}). */
  private static List<String> targetColumnsOf(String cond, Schema target) {
    String text = cond.toLowerCase(Locale.ROOT).replace(" ", "");
    List<String> out = new ArrayList<>();
    for (Field f : target.getFields()) {
      String name = f.getName().toLowerCase(Locale.ROOT);
      if (text.contains(TARGET + "." + name) || text.contains(TARGET + ".`" + name + "`")) {
        out.add(f.getName());
      }
    }
    return out;
  }

  /** What one attempt did. */
  private record Counts(Dataset dataset, long inserted, long updated, long deleted, MergeInsertPlan plan) {}

  /** A growable list of ints. */
  private static final class Ints {
    int[] a = new int[64];
    int n;

    void add(int x) {
      if (n == a.length) {
        a = Arrays.copyOf(a, n * 2);
      }
      a[n++] = x;
    }
  }

  // One attempt on version `at`: find the matches, write the new rows, commit.
  private static Counts once(Dataset at, MergeSource src, Spec spec) {
    Manifest read = at.manifest();
    Schema target = at.schema().toArrow();
    IndexChoice choice = chooseIndex(at, spec);
    MergeInsertPlan plan = plan(at, spec, choice);
    BufferAllocator allocator = src.allocator();
    boolean stableIds = UpdateReads.stableRowIds(read);
    boolean updates = spec.matched() == Matched.UPDATE_ALL;

    Set<String> cols = new HashSet<>(src.keyNames());
    BoundExpression matchedIf = null;
    Schema condTarget = null;
    if (spec.matchedIf() != null) {
      List<String> named = targetColumnsOf(spec.matchedIf(), target);
      cols.addAll(named);
      List<Field> fs = new ArrayList<>();
      named.forEach(n -> fs.add(target.findField(n)));
      condTarget = new Schema(fs);
      matchedIf = bindMatched(spec.matchedIf(), condTarget, target);
    }
    BoundExpression bySourceIf = null;
    if (spec.bySourceIf() != null) {
      bySourceIf = Expression.parse(spec.bySourceIf()).bindFilter(target);
      cols.addAll(bySourceIf.columns());
    }
    List<String> readCols = new ArrayList<>();
    target.getFields().forEach(f -> {
      if (cols.contains(f.getName())) {
        readCols.add(f.getName());
      }
    });

    Matches found = new Matches(at, src, spec, condTarget, matchedIf, bySourceIf, stableIds && updates);
    if (!(spec.bySource() == BySource.KEEP && src.keyCount() == 0)) {
      try {
        List<Long> scanned = plan.scannedFragments();
        if (plan.index() != null) {
          lookUp(at, choice.index(), plan, src, readCols, found);
        }
        if (plan.index() == null || !scanned.isEmpty()) {
          ScanBuilder scan = at.newScan().columns(readCols).withRowAddress();
          if (plan.index() != null) {
            List<Fragment> only = new ArrayList<>();
            read.fragments().forEach(f -> {
              if (scanned.contains(f.id())) {
                only.add(f);
              }
            });
            scan.fragments(only);
          }
          if (stableIds && updates) {
            scan.withRowId().withRowCreatedAtVersion();
          }
          try (ArrowReader r = scan.build()) {
            VectorSchemaRoot root = r.getVectorSchemaRoot();
            while (r.loadNextBatch()) {
              found.add(root);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Merge insert failed: " + at.location(), e);
      }
    }
    Map<Long, RoaringBitmap> changed = found.changed;
    Map<Long, RoaringBitmap> matchedRows = found.matchedRows;
    BitSet matchedSource = found.matchedSource;
    Ints updateSource = found.updateSource;
    Longs updateIds = found.updateIds;
    Longs updateCreated = found.updateCreated;
    long deleted = found.deleted;

    Ints inserts = new Ints();
    if (spec.notMatched() == NotMatched.INSERT_ALL) {
      for (int s = matchedSource.nextClearBit(0); s < src.rows(); s = matchedSource.nextClearBit(s + 1)) {
        inserts.add(s);
      }
    }
    if (updateSource.n == 0 && inserts.n == 0 && changed.isEmpty()) {
      return new Counts(at, 0, 0, 0, plan);
    }
    try (UpdateFiles files = new UpdateFiles(at)) {
      List<Fragment> added = new ArrayList<>();
      if (!stableIds) {
        // Replacements and inserts are alike (new rows, new addresses): one pass over the
        // spilled source, in source row order, writes them together.
        int[] all = Arrays.copyOf(updateSource.a, updateSource.n + inserts.n);
        System.arraycopy(inserts.a, 0, all, updateSource.n, inserts.n);
        Arrays.sort(all);
        FragmentWriter w = files.writer(at.schema(), WriteParams.defaults());
        src.write(all, all.length, w::write);
        added.addAll(w.finish());
      } else {
        FragmentWriter replaced = null;
        RowLineage lineage = new RowLineage();
        if (updateSource.n > 0) {
          // In source row order, so the spilled source is read once, front to back; the row ids
          // are handed out in the same order.
          int[] order = sourceOrder(updateSource);
          int[] rowsInOrder = new int[updateSource.n];
          for (int j = 0; j < order.length; j++) {
            rowsInOrder[j] = updateSource.a[order[j]];
            lineage.add(updateIds.a[order[j]], updateCreated.a[order[j]], RowLineage.NONE);
          }
          replaced = files.writer(at.schema(), WriteParams.defaults());
          src.write(rowsInOrder, rowsInOrder.length, replaced::write);
          replaced.closeAsync(); // its last file is encoded while the inserts are written
        }
        List<Fragment> inserted = List.of();
        if (inserts.n > 0) {
          // Separate fragments: the commit gives their rows new ids.
          FragmentWriter w = files.writer(at.schema(), WriteParams.defaults());
          src.write(inserts.a, inserts.n, w::write);
          inserted = w.finish();
        }
        if (replaced != null) {
          for (Fragment f : replaced.finish()) {
            added.add(lineage.next(f));
          }
        }
        added.addAll(inserted);
      }
      Map<Long, Fragment> byId = new HashMap<>();
      read.fragments().forEach(f -> byId.put(f.id(), f));
      List<Fragment> updated = new ArrayList<>();
      List<Long> removed = new ArrayList<>();
      for (Map.Entry<Long, RoaringBitmap> e : changed.entrySet()) {
        Fragment f = byId.get(e.getKey());
        DeletionMerge.merge(at.store(), f, Deletes.deletedRows(at.store(), f, allocator), e.getValue(),
            read.version(), files.pending(), allocator).ifPresentOrElse(updated::add, () -> removed.add(f.id()));
      }
      Set<Long> readSet = new TreeSet<>(changed.keySet());
      readSet.addAll(matchedRows.keySet());
      Transaction txn = ConflictRules.markMergeInsert(Transaction.update(read.version(), updated, removed, added,
          List.of(), List.of(), TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS), readSet);
      Dataset committed = files.commit(txn, 0, new MergeInsertRebase(at.table(), changed, matchedRows,
          new MergeMoved(at.table(), changed, allocator), allocator)).dataset();
      return new Counts(committed, inserts.n, updateSource.n, deleted, plan);
    } catch (IOException e) {
      throw new UncheckedIOException("Merge insert failed: " + at.location(), e);
    }
  }

  /**
   * What one attempt found, batch by batch of target rows (the key columns, the columns the
   * conditions name, {@code _rowaddr}, and with stable row ids {@code _rowid} and the created-at
   * version): per fragment the rows it replaces or deletes and those it matched, the source rows
   * that matched, and the source rows of the replacements.
   */
  private static final class Matches {
    final Dataset at;
    final MergeSource src;
    final Spec spec;
    final Schema condTarget;
    final BoundExpression matchedIf;
    final BoundExpression bySourceIf;
    final boolean lineage;
    final boolean lookUpOnly;
    final Map<Long, RoaringBitmap> changed = new TreeMap<>();
    final Map<Long, RoaringBitmap> matchedRows = new HashMap<>();
    final BitSet matchedSource;
    final Ints updateSource = new Ints();
    // With stable row ids, each replaced row's id and created-at version, in updateSource's order.
    final Longs updateIds = new Longs();
    final Longs updateCreated = new Longs();
    long deleted;
    private int[] tRows = new int[0];
    private int[] sRows = new int[0];

    Matches(Dataset at, MergeSource src, Spec spec, Schema condTarget, BoundExpression matchedIf,
        BoundExpression bySourceIf, boolean lineage) {
      this.at = at;
      this.src = src;
      this.spec = spec;
      this.condTarget = condTarget;
      this.matchedIf = matchedIf;
      this.bySourceIf = bySourceIf;
      this.lineage = lineage;
      this.lookUpOnly = spec.bySource() == BySource.KEEP;
      this.matchedSource = new BitSet(src.rows());
    }

    void add(VectorSchemaRoot root) throws IOException {
      int n = root.getRowCount();
      if (n == 0) {
        return;
      }
      if (tRows.length < n) {
        tRows = new int[n];
        sRows = new int[n];
      }
      List<FieldVector> keyVectors = src.keyVectors(root);
      UInt8Vector addr = (UInt8Vector) root.getVector(ROW_ADDR);
      int m = src.match(keyVectors, n, tRows, sRows);
      if (m > 0 && spec.matched() == Matched.FAIL) {
        throw new MergeInsertException("Source row with key " + MergeSource.describe(keyVectors, tRows[0])
            + " matched a row of the dataset, and the merge insert was set to fail when a row matches: "
            + at.location());
      }
      BitSet unmatched = null;
      if (!lookUpOnly) {
        unmatched = new BitSet(n);
        unmatched.set(0, n);
      }
      for (int j = 0; j < m; j++) {
        matchedSource.set(sRows[j]);
        mark(matchedRows, addr.get(tRows[j]));
        if (unmatched != null) {
          unmatched.clear(tRows[j]);
        }
      }
      if (m > 0 && spec.matched() != Matched.DO_NOTHING) {
        int[] keep = null;
        if (matchedIf != null) {
          sortBySource(tRows, sRows, m); // so the spilled source is read in order
          try (VectorSchemaRoot both = pairs(root, condTarget, tRows, sRows, m, src)) {
            keep = matchedIf.select(both);
          }
        }
        int count = keep == null ? m : keep.length;
        for (int j = 0; j < count; j++) {
          int p = keep == null ? j : keep[j];
          mark(changed, addr.get(tRows[p]));
          if (spec.matched() == Matched.UPDATE_ALL) {
            updateSource.add(sRows[p]);
            if (lineage) {
              updateIds.add(((UInt8Vector) root.getVector(ROW_ID)).get(tRows[p]));
              updateCreated.add(((UInt8Vector) root.getVector(CREATED_AT)).get(tRows[p]));
            }
          } else {
            deleted++;
          }
        }
      }
      if (unmatched != null && !unmatched.isEmpty()) {
        BitSet del = unmatched;
        if (bySourceIf != null) {
          del = new BitSet(n);
          for (int i : bySourceIf.select(root)) {
            del.set(i);
          }
          del.and(unmatched);
        }
        for (int i = del.nextSetBit(0); i >= 0; i = del.nextSetBit(i + 1)) {
          mark(changed, addr.get(i));
          deleted++;
        }
      }
    }

    private static void mark(Map<Long, RoaringBitmap> rows, long address) {
      rows.computeIfAbsent(address >>> 32, k -> new RoaringBitmap()).add((int) address);
    }
  }

  /**
   * Finds the matches in the fragments the plan's index covers: the index gives the addresses of
   * the rows holding one of the source's keys, and only those rows' columns are read (the key
   * column is never scanned there).
   */
  private static void lookUp(Dataset at, IndexInfo index, MergeInsertPlan plan, MergeSource src,
      List<String> readCols, Matches found) throws IOException {
    IndexMetadata meta = at.manifest().indices().stream().filter(m -> m.uuid().equals(index.uuid())).findFirst()
        .orElseThrow();
    ArrowType columnType = at.schema().toArrow().findField(plan.on().get(0)).getType();
    ObjectStore store = at.manifest().basePaths().indexStore(at.store(), meta);
    Roaring64NavigableMap rows;
    if (index.type() == IndexType.BTREE) {
      try (BTreeIndex btree = SessionState.of(at).indices().open(store, index.uuid())) {
        List<long[]> runs = src.keyRuns(MAX_RUNS);
        if (runs == null) {
          rows = btree.search(ScalarQuery.in(src.sortedKeys()));
        } else {
          // Keys in a few dense runs: a range per run is binary-searched in the index's sorted
          // pages, where an IN list is checked row by row; rows in a run's gaps are dropped
          // when their keys are matched.
          rows = new Roaring64NavigableMap();
          for (long[] run : runs) {
            rows.or(btree.search(ScalarQuery.between(run[0], run[1])));
          }
        }
      }
    } else {
      ScalarIndex other = SessionState.of(at).indices().openScalar(store, index.uuid(), index.type(), columnType);
      rows = other.search(ScalarQuery.in(src.sortedKeys())).rows();
    }
    List<LanceField> fields = at.fields(readCols);
    BufferAllocator allocator = src.allocator();
    Map<Long, long[]> byFragment = byFragment(rows);
    for (Fragment f : at.manifest().fragments()) {
      long[] candidates = byFragment.get(f.id());
      if (candidates == null || !plan.indexedFragments().contains(f.id())) {
        continue;
      }
      long[] offsets = live(candidates, f, Deletes.deletedRows(at.store(), f, allocator));
      for (int from = 0; from < offsets.length; from += LOOKUP_BATCH) {
        long[] part = Arrays.copyOfRange(offsets, from, Math.min(offsets.length, from + LOOKUP_BATCH));
        List<VectorSchemaRoot> opened = new ArrayList<>();
        try (UInt8Vector addr = new UInt8Vector(ROW_ADDR, allocator)) {
          FieldVector[] taken = Take.takeFromFragment(at, f, fields, part, opened, allocator);
          addr.allocateNew(part.length);
          for (int i = 0; i < part.length; i++) {
            addr.set(i, (f.id() << 32) | part[i]);
          }
          addr.setValueCount(part.length);
          List<FieldVector> vectors = new ArrayList<>(Arrays.asList(taken));
          vectors.add(addr);
          VectorSchemaRoot batch = new VectorSchemaRoot(vectors);
          batch.setRowCount(part.length);
          found.add(batch);
        } finally {
          opened.forEach(VectorSchemaRoot::close);
        }
      }
    }
  }

  /** The most ranges of keys looked up one by one instead of as an IN list. */
  private static final int MAX_RUNS = 16;

  /** Rows a lookup reads at a time. */
  private static final int LOOKUP_BATCH = 8192;

  // The found addresses' physical offsets, ascending, by fragment id.
  private static Map<Long, long[]> byFragment(Roaring64NavigableMap rows) {
    Map<Long, long[]> out = new HashMap<>();
    LongIterator it = rows.getLongIterator();
    long current = -1;
    Longs offsets = null;
    while (it.hasNext()) {
      long a = it.next();
      if ((a >>> 32) != current) {
        if (offsets != null) {
          out.put(current, Arrays.copyOf(offsets.a, offsets.n));
        }
        current = a >>> 32;
        offsets = new Longs();
      }
      offsets.add(a & 0xFFFFFFFFL);
    }
    if (offsets != null) {
      out.put(current, Arrays.copyOf(offsets.a, offsets.n));
    }
    return out;
  }

  // The offsets that are rows of fragment f, past neither its end nor deleted.
  private static long[] live(long[] offsets, Fragment f, RoaringBitmap deleted) {
    long[] out = new long[offsets.length];
    int n = 0;
    for (long r : offsets) {
      if (r < f.physicalRows() && !deleted.contains((int) r)) {
        out[n++] = r;
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** A growable list of longs. */
  private static final class Longs {
    long[] a = new long[64];
    int n;

    void add(long x) {
      if (n == a.length) {
        a = Arrays.copyOf(a, n * 2);
      }
      a[n++] = x;
    }
  }

  // The positions of rows's entries in ascending order of source row (stable).
  private static int[] sourceOrder(Ints rows) {
    long[] packed = new long[rows.n];
    for (int j = 0; j < rows.n; j++) {
      packed[j] = ((long) rows.a[j] << 32) | j;
    }
    Arrays.sort(packed);
    int[] out = new int[rows.n];
    for (int j = 0; j < out.length; j++) {
      out[j] = (int) packed[j];
    }
    return out;
  }

  // Sorts the first m pairs (tRows[j], sRows[j]) by source row.
  private static void sortBySource(int[] tRows, int[] sRows, int m) {
    long[] packed = new long[m];
    for (int j = 0; j < m; j++) {
      packed[j] = ((long) sRows[j] << 32) | tRows[j];
    }
    Arrays.sort(packed);
    for (int j = 0; j < m; j++) {
      sRows[j] = (int) (packed[j] >>> 32);
      tRows[j] = (int) packed[j];
    }
  }

  // The matched pairs of a batch as a batch of two struct columns, "target" (the columns the
  // condition names, from the scan) and "source" (every column, from the source).
  private static VectorSchemaRoot pairs(VectorSchemaRoot scan, Schema condTarget, int[] tRows, int[] sRows, int m,
      MergeSource src) throws IOException {
    BufferAllocator allocator = src.allocator();
    StructVector t = (StructVector) new Field(TARGET, FieldType.notNullable(ArrowType.Struct.INSTANCE),
        condTarget.getFields()).createVector(allocator);
    StructVector s = (StructVector) new Field(SOURCE, FieldType.notNullable(ArrowType.Struct.INSTANCE),
        src.schema().getFields()).createVector(allocator);
    try {
      t.setInitialCapacity(m);
      s.setInitialCapacity(m);
      t.allocateNew();
      s.allocateNew();
      for (Field f : condTarget.getFields()) {
        FieldVector to = (FieldVector) t.getChild(f.getName());
        FieldVector from = scan.getVector(f.getName());
        for (int j = 0; j < m; j++) {
          to.copyFromSafe(tRows[j], j, from);
        }
        to.setValueCount(m);
      }
      List<FieldVector> srcChildren = new ArrayList<>();
      src.schema().getFields().forEach(f -> srcChildren.add((FieldVector) s.getChild(f.getName())));
      for (int j = 0; j < m; j++) {
        src.copyRow(sRows[j], srcChildren, j);
        t.setIndexDefined(j);
        s.setIndexDefined(j);
      }
      srcChildren.forEach(v -> v.setValueCount(m));
      t.setValueCount(m);
      s.setValueCount(m);
      return new VectorSchemaRoot(List.of(t.getField(), s.getField()), List.of(t, s), m);
    } catch (IOException | RuntimeException e) {
      t.close();
      s.close();
      throw e;
    }
  }

}
