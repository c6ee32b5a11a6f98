package dev.javelin.core.internal.write;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.WriteParams;
import dev.javelin.core.exceptions.InvalidUpdateException;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.overlay.OverlayUpdate;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.DeletedSlots;
import dev.javelin.format.Gather;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Commit;
import dev.javelin.table.DataFile;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Overlay;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.deletion.DeletionMerge;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowLineage;
import dev.javelin.table.rowids.RowVersionSequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.roaringbitmap.RoaringBitmap;

/**
 * Updates rows the way Lance does, committing an {@code Update}:
 *
 * <ul>
 *   <li>{@link #rewriteRows} (Lance's {@code UpdateBuilder}, mode {@code REWRITE_ROWS}): the
 *       matching rows are read whole, the assignments applied, and the rows written to new
 *       fragments batch by batch; their old copies are deleted through the touched fragments'
 *       deletion files (a fragment left without live rows is removed).
 *   <li>{@link #rewriteColumns} (mode {@code REWRITE_COLUMNS}, what Lance's merge-insert does for
 *       a subset of columns): every fragment holding a matching row gets one new data file with
 *       the assigned columns for all its physical rows (rows that do not match keep their value),
 *       and those fields' slots in its older files are tombstoned.
 * </ul>
 *
 * <p>Like Lance, an update that loses against a concurrent commit it cannot build on is run
 * again on the newest version (up to {@link #CONFLICT_RETRIES} times), unless the dataset was
 * overwritten or restored meanwhile. A failure deletes every file written.
 */
public final class Updater {
  /** How many times a conflicting update is redone on the newest version (Lance's default). */
  static final int CONFLICT_RETRIES = 10;

  private final Dataset ds;
  private final String location;

  public Updater(Dataset ds) {
    this.ds = ds;
    this.location = ds.location();
  }

  /** One assignment: the column (top-level, index in the schema) and its bound value. */
  public record Assignment(int index, LanceField field, Field arrow, BoundExpression value) {}

  public UpdateResult rewriteRows(String filter, Map<String, String> set) {
    bind(ds.schema(), set); // fail early, before any file is written
    return withRetries(at -> rewriteRowsOnce(at, filter, bind(at.schema(), set)));
  }

  public UpdateResult rewriteColumns(String filter, Map<String, String> set) {
    bind(ds.schema(), set);
    return withRetries(at -> rewriteColumnsOnce(at, filter, bind(at.schema(), set)));
  }

  /** Writes the new values as data overlays (see {@link OverlayUpdate}). */
  public UpdateResult overlay(String filter, Map<String, String> set) {
    bind(ds.schema(), set);
    return withRetries(at -> OverlayUpdate.once(at, filter, bind(at.schema(), set)));
  }

  private UpdateResult withRetries(Function<Dataset, UpdateResult> attempt) {
    Dataset[] at = {ds};
    return Tasks.retry().maxAttempts(CONFLICT_RETRIES + 1).retryOn(CommitConflictException.class)
        .retryIf(e -> retryable(at[0].table(), (CommitConflictException) e))
        .run(n -> {
          if (n > 1) {
            at[0] = at[0].checkoutLatest();
          }
          return attempt.apply(at[0]);
        });
  }

  // An overwrite or restore replaced the data the update was asked about: Lance does not retry.
  private static boolean retryable(Table table, CommitConflictException e) {
    try {
      OperationKind kind = table.transaction(table.load(e.conflictingVersion())).map(Transaction::kind)
          .orElse(OperationKind.UNKNOWN);
      return kind != OperationKind.OVERWRITE && kind != OperationKind.RESTORE && kind != OperationKind.UNKNOWN;
    } catch (RuntimeException lookup) {
      return false;
    }
  }

  private List<Assignment> bind(LanceSchema schema, Map<String, String> set) {
    if (set == null || set.isEmpty()) {
      throw new InvalidUpdateException("No columns to update: " + location, null);
    }
    List<Assignment> out = new ArrayList<>();
    List<LanceField> fields = schema.fields();
    for (Map.Entry<String, String> e : set.entrySet()) {
      String name = e.getKey();
      int index = -1;
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).name().equals(name)) {
          index = i;
        }
      }
      if (index < 0) {
        String why = name.contains(".") ? "Nested columns cannot be updated yet: '" + name + "'"
            : "Column '" + name + "' does not exist in the dataset";
        throw new InvalidUpdateException(why + ": " + location, name);
      }
      LanceField f = fields.get(index);
      Field arrow = f.toArrow();
      BoundExpression value = Expression.parse(e.getValue()).bindValue(schema);
      value.checkFits(arrow);
      out.add(new Assignment(index, f, arrow, value));
    }
    out.sort((a, b) -> Integer.compare(a.index, b.index));
    return out;
  }

  private static boolean blank(String filter) {
    return filter == null || filter.isBlank();
  }

  // ---- REWRITE_ROWS

  private UpdateResult rewriteRowsOnce(Dataset at, String filter, List<Assignment> set) {
    Manifest read = at.manifest();
    LanceSchema schema = at.schema();
    List<LanceField> fields = schema.fields();
    BufferAllocator allocator = at.allocator();
    Assignment[] byIndex = new Assignment[fields.size()];
    set.forEach(a -> byIndex[a.index] = a);
    FragmentWriter writer = new FragmentWriter(SessionState.of(at).pools(), at.store(), schema, at.fileVersion(),
        WriteParams.defaults(), "update");
    Map<Long, RoaringBitmap> moved = new TreeMap<>();
    MovedRowIds ids = stableRowIds(read) ? new MovedRowIds(at.store(), read) : null;
    PendingFiles written = new PendingFiles(at.store());
    long count = 0;
    try (written) {
      ScanBuilder scan = at.newScan().withRowAddress();
      if (!blank(filter)) {
        scan.filter(filter);
      }
      try (ArrowReader r = scan.build()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        while (r.loadNextBatch()) {
          int n = root.getRowCount();
          if (n == 0) {
            continue;
          }
          UInt8Vector addr = (UInt8Vector) root.getVector(fields.size());
          for (int i = 0; i < n; i++) {
            long a = addr.get(i);
            moved.computeIfAbsent(a >>> 32, k -> new RoaringBitmap()).add((int) (a & 0xFFFFFFFFL));
            if (ids != null) {
              ids.add(a);
            }
          }
          List<FieldVector> vectors = new ArrayList<>();
          List<FieldVector> made = new ArrayList<>();
          try {
            for (int c = 0; c < fields.size(); c++) {
              if (byIndex[c] == null) {
                vectors.add(root.getVector(c));
              } else {
                FieldVector v = byIndex[c].value.evaluate(root, byIndex[c].arrow, allocator);
                made.add(v);
                vectors.add(v);
              }
            }
            // A view: it owns none of the vectors, so it is never closed.
            writer.write(new VectorSchemaRoot(fieldsOf(vectors), vectors, n));
          } finally {
            made.forEach(FieldVector::close);
          }
          count += n;
        }
      }
      if (count == 0) {
        return new UpdateResult(at, 0);
      }
      List<Fragment> added = writer.finish();
      written.addAll(writer.writtenKeys());
      if (ids != null) {
        added = ids.attach(added);
      }
      Map<Long, Fragment> byId = new HashMap<>();
      read.fragments().forEach(f -> byId.put(f.id(), f));
      List<Fragment> updated = new ArrayList<>();
      List<Long> removed = new ArrayList<>();
      for (Map.Entry<Long, RoaringBitmap> e : moved.entrySet()) {
        Fragment f = byId.get(e.getKey());
        DeletionMerge.merge(at.store(), f, Deletes.deletedRows(at.store(), f, allocator), e.getValue(),
            read.version(), written, allocator).ifPresentOrElse(updated::add, () -> removed.add(f.id()));
      }
      List<Integer> assigned = new ArrayList<>();
      set.forEach(a -> assigned.add(a.field.id()));
      Transaction txn = Transaction.update(read.version(), updated, removed, added, List.of(), assigned,
          TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS);
      // From here the commit owns the files (it deletes them only if it definitely fails).
      written.commit();
      Manifest m = at.table().newCommit(txn).cleanupOnFailure(written.keys())
          .rebase(new MergeMoved(at.table(), moved, allocator)).commit();
      return new UpdateResult(at.at(m), count);
    } catch (IOException e) {
      throw new UncheckedIOException("Update failed: " + location, e);
    } finally {
      if (!written.committed()) {
        writer.deleteAll(); // and its open file
      }
    }
  }

  private static boolean stableRowIds(Manifest m) {
    return (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
  }

  /**
   * The stable row ids and created-at versions of the moved rows, in the order they were
   * written, so that each new fragment carries its rows' old ids (Lance keeps a row's id across
   * an update) and their creation versions; the commit sets last-updated to the new version.
   * Reads each touched fragment's sequences once.
   */
  private static final class MovedRowIds {
    private final ObjectStore store;
    private final Map<Long, Fragment> byId = new HashMap<>();
    private final Map<Long, RowIdSequence> idsOf = new HashMap<>();
    private final Map<Long, Optional<RowVersionSequence>> createdOf = new HashMap<>();
    private final RowLineage lineage = new RowLineage();

    MovedRowIds(ObjectStore store, Manifest read) {
      this.store = store;
      read.fragments().forEach(f -> byId.put(f.id(), f));
    }

    void add(long address) {
      long frag = address >>> 32;
      long offset = address & 0xFFFFFFFFL;
      Fragment f = byId.get(frag);
      RowIdSequence seq = idsOf.computeIfAbsent(frag, k -> f.rowIdSequence(store)
          .orElseThrow(() -> new IllegalStateException("Fragment " + k + " has no row ids: " + store.location())));
      Optional<RowVersionSequence> versions = createdOf.computeIfAbsent(frag, k -> f.createdAtVersions(store));
      // Lance counts a row without a recorded creation version as created at version 1.
      lineage.add(seq.get(offset), versions.map(v -> v.get(offset)).orElse(1L), RowLineage.NONE);
    }

    List<Fragment> attach(List<Fragment> fragments) {
      long moved = lineage.remaining(0);
      long wrote = fragments.stream().mapToLong(Fragment::physicalRows).sum();
      if (wrote != moved) {
        throw new IllegalStateException("Wrote " + wrote + " rows but moved " + moved + ": " + store.location());
      }
      List<Fragment> out = new ArrayList<>();
      fragments.forEach(f -> out.add(lineage.next(f)));
      return out;
    }
  }

  /**
   * Rebases a row-rewriting Update over concurrent Deletes and Updates that changed only the
   * deletion files of fragments whose rows it moved: each such fragment's deletion vector becomes
   * the newest one united with the moved rows. If the other commit deleted or moved one of the
   * same rows, the update conflicts (and is redone on the newest version).
   */
  private static final class MergeMoved implements Commit.Rebase {
    private final Table table;
    private final Map<Long, RoaringBitmap> moved;
    private final BufferAllocator allocator;

    MergeMoved(Table table, Map<Long, RoaringBitmap> moved, BufferAllocator allocator) {
      this.table = table;
      this.moved = moved;
      this.allocator = allocator;
    }

    @Override
    public Commit.Rebased rebase(Transaction mine, List<Transaction> committed, Manifest latest) {
      Set<Long> touched = new HashSet<>();
      for (Transaction t : committed) {
        TransactionProtos.Transaction p = t.proto();
        if (t.kind() == OperationKind.DELETE) {
          p.getDelete().getUpdatedFragmentsList().forEach(f -> touched.add(f.getId()));
        } else if (t.kind() == OperationKind.UPDATE) {
          p.getUpdate().getUpdatedFragmentsList().forEach(f -> touched.add(f.getId()));
        }
      }
      Map<Long, Fragment> now = new HashMap<>();
      latest.fragments().forEach(f -> now.put(f.id(), f));
      TransactionProtos.Transaction.Update op = mine.proto().getUpdate();
      List<TableProtos.DataFragment> updated = new ArrayList<>();
      List<Long> removed = new ArrayList<>(op.getRemovedFragmentIdsList());
      List<String> superseded = new ArrayList<>();
      try (PendingFiles written = new PendingFiles(table.store())) {
        for (TableProtos.DataFragment f : op.getUpdatedFragmentsList()) {
          long id = f.getId();
          if (!touched.contains(id)) {
            updated.add(f);
            continue;
          }
          Fragment current = now.get(id);
          RoaringBitmap ours = moved.get(id);
          if (current == null) {
            throw TableErrors.rowsUpdatedConcurrently(table.location(), mine, latest.version(),
                id << 32 | Integer.toUnsignedLong(ours.first()));
          }
          RoaringBitmap theirs = Deletes.deletedRows(table.store(), current, allocator);
          OptionalLong shared = DeletionMerge.firstShared(theirs, ours);
          if (shared.isPresent()) {
            throw TableErrors.rowsUpdatedConcurrently(table.location(), mine, latest.version(),
                id << 32 | shared.getAsLong());
          }
          superseded.add(DeletionFile.fromProto(f.getDeletionFile()).key(id));
          DeletionMerge.merge(table.store(), current, theirs, ours, latest.version(), written, allocator)
              .ifPresentOrElse(m -> updated.add(m.proto()), () -> removed.add(id));
        }
        Transaction rebased = Transaction.fromProto(mine.proto().toBuilder()
            .setReadVersion(latest.version())
            .setUpdate(op.toBuilder().clearUpdatedFragments().addAllUpdatedFragments(updated)
                .clearRemovedFragmentIds().addAllRemovedFragmentIds(removed))
            .build());
        written.commit();
        return new Commit.Rebased(rebased, written.keys(), superseded);
      } catch (IOException e) {
        throw new UncheckedIOException("Could not merge deletion files of a concurrent commit: "
            + table.location(), e);
      }
    }
  }

  // ---- REWRITE_COLUMNS

  private UpdateResult rewriteColumnsOnce(Dataset at, String filter, List<Assignment> set) {
    Manifest read = at.manifest();
    if (stableRowIds(read)) {
      // Lance refreshes the rows' last-updated versions in place; not done here yet.
      throw TableErrors.stableRowIdsUnsupported(location, read.version(), OperationKind.UPDATE);
    }
    LanceSchema schema = at.schema();
    BufferAllocator allocator = at.allocator();
    ObjectStore store = at.store();
    BoundExpression where = blank(filter) ? null : Expression.parse(filter).bindFilter(schema);
    Set<String> need = new HashSet<>();
    set.forEach(a -> {
      need.add(a.field.name());
      need.addAll(a.value.columns());
    });
    if (where != null) {
      need.addAll(where.columns());
    }
    List<String> readNames = new ArrayList<>();
    schema.fields().forEach(f -> {
      if (need.contains(f.name())) {
        readNames.add(f.name());
      }
    });
    List<LanceField> readFields = at.fields(readNames);
    List<LanceField> outFields = new ArrayList<>();
    set.forEach(a -> outFields.add(a.field));
    // The new files hold the assigned fields under their existing ids.
    LanceSchema outSchema = new LanceSchema(outFields, Map.of());
    List<FragmentWriter> writers = new ArrayList<>();
    List<Fragment> updated = new ArrayList<>();
    Set<Integer> modified = new HashSet<>();
    boolean handedOver = false;
    long count = 0;
    try {
      for (Fragment f : read.fragments()) {
        if (f.physicalRows() == 0) {
          continue;
        }
        DeletedSlots slots = new DeletedSlots(Deletes.deletedRows(store, f, allocator), f.physicalRows());
        FragmentWriter w = new FragmentWriter(SessionState.of(at).pools(), store, outSchema, at.fileVersion(),
            WriteParams.builder().maxRowsPerFile(f.physicalRows()).build(), "update");
        writers.add(w);
        long matched = 0;
        try (ArrowReader in = new DatasetReader(store, location, List.of(f), readFields,
            ReadOptions.DEFAULT_BATCH_SIZE, allocator)) {
          while (in.loadNextBatch()) {
            VectorSchemaRoot batch = in.getVectorSchemaRoot();
            int n = batch.getRowCount();
            int[] sel = where == null ? null : where.select(batch);
            matched += sel == null ? n : sel.length;
            writeColumns(w, batch, n, sel, set, slots, allocator);
          }
        }
        if (matched == 0) {
          w.deleteAll();
          continue;
        }
        if (slots.position() != f.physicalRows()) {
          throw new IllegalStateException("Fragment " + f.id() + " has " + f.physicalRows() + " rows but "
              + slots.position() + " were rewritten: " + location);
        }
        DataFile file = w.finish().get(0).files().get(0);
        modified.addAll(file.fields());
        updated.add(tombstoned(f, file));
        count += matched;
      }
      if (count == 0) {
        return new UpdateResult(at, 0);
      }
      List<String> keys = new ArrayList<>();
      writers.forEach(w -> keys.addAll(w.writtenKeys()));
      Transaction txn = Transaction.update(read.version(), updated, List.of(), List.of(),
          new ArrayList<>(new TreeSet<>(modified)), List.of(),
          TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS);
      handedOver = true;
      Manifest m = at.table().newCommit(txn).cleanupOnFailure(keys).commit();
      return new UpdateResult(at.at(m), count);
    } catch (IOException e) {
      throw new UncheckedIOException("Update failed: " + location, e);
    } finally {
      if (!handedOver) {
        writers.forEach(FragmentWriter::deleteAll);
      }
    }
  }

  // Writes one batch of the assigned columns: new values where the filter matched (all rows
  // without a filter), old values elsewhere, widened over the deleted slots.
  private static void writeColumns(FragmentWriter w, VectorSchemaRoot batch, int n, int[] sel, List<Assignment> set,
      DeletedSlots slots, BufferAllocator allocator) throws IOException {
    List<FieldVector> vectors = new ArrayList<>();
    List<FieldVector> made = new ArrayList<>();
    VectorSchemaRoot wide = null;
    try {
      for (Assignment a : set) {
        FieldVector fresh = a.value.evaluate(batch, a.arrow, allocator);
        made.add(fresh);
        if (sel == null || sel.length == n) {
          vectors.add(fresh);
          continue;
        }
        int[] source = new int[n];
        int[] row = new int[n];
        for (int i = 0; i < n; i++) {
          row[i] = i;
        }
        for (int i : sel) {
          source[i] = 1;
        }
        FieldVector mixed = Gather.gather(new FieldVector[] {batch.getVector(a.field.name()), fresh}, source, row,
            allocator);
        made.add(mixed);
        vectors.add(mixed);
      }
      VectorSchemaRoot view = new VectorSchemaRoot(fieldsOf(vectors), vectors, n);
      wide = DeletedSlots.widen(view, slots.next(n), allocator);
      w.write(wide == null ? view : wide);
    } finally {
      if (wide != null) {
        wide.close();
      }
      made.forEach(FieldVector::close);
    }
  }

  // The fragment with the new file last and the rewritten fields' slots in its older files
  // tombstoned (-2); a file left with no live field is dropped, as Lance's update_columns does.
  private static Fragment tombstoned(Fragment f, DataFile file) {
    Set<Integer> rewritten = new HashSet<>(file.fields());
    TableProtos.DataFragment.Builder b = f.proto().toBuilder().clearFiles();
    for (DataFile old : f.files()) {
      TableProtos.DataFile.Builder d = old.proto().toBuilder();
      boolean live = false;
      for (int i = 0; i < d.getFieldsCount(); i++) {
        if (rewritten.contains(d.getFields(i))) {
          d.setFields(i, DataFile.TOMBSTONE);
        }
        live |= d.getFields(i) != DataFile.TOMBSTONE;
      }
      if (live) {
        b.addFiles(d);
      }
    }
    b.addFiles(file.proto());
    // The new file holds every row's newest value (read through overlays): overlays of these fields end.
    return Fragment.fromProto(Overlay.withoutFields(b.build(), rewritten));
  }

  private static List<Field> fieldsOf(List<FieldVector> vectors) {
    List<Field> out = new ArrayList<>();
    vectors.forEach(v -> out.add(v.getField()));
    return out;
  }
}
