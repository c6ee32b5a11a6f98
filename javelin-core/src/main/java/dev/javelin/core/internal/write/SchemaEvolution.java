package dev.javelin.core.internal.write;

import dev.javelin.core.ColumnAlteration;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.exceptions.ColumnLengthMismatchException;
import dev.javelin.core.exceptions.SchemaEvolutionException;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.DeletedSlots;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Adds, drops and alters columns, committing what Lance commits for the same change: adding
 * columns is a {@code Merge} (the new schema and every fragment, each with one more data file
 * holding the new fields, or unchanged for all-null columns), dropping and altering a
 * {@code Project} (the new schema only; the manifest builder tombstones dropped field ids).
 *
 * <p>New values are written fragment by fragment, batch by batch; a failure deletes every file
 * written and leaves the dataset at its version.
 */
public final class SchemaEvolution {
  private final Dataset ds;
  private final String location;

  public SchemaEvolution(Dataset ds) {
    this.ds = ds;
    this.location = ds.location();
  }

  // ---- adding

  /**
   * Values aligned with the scan order: live rows fill fragment after fragment. A fragment's
   * deleted rows get copies of neighbouring values in its new file (see {@link DeletedSlots}).
   */
  public Manifest addFromReader(ArrowReader values) {
    Schema out;
    try {
      out = values.getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the new columns' schema: " + location, e);
    }
    List<LanceField> added = newFields(out.getFields(), false);
    List<Fragment> fragments = ds.manifest().fragments();
    long[] taken = new long[fragments.size()];
    DeletedSlots[] slots = new DeletedSlots[fragments.size()];
    ColumnWriters writers = new ColumnWriters(added);
    try {
      int frag = 0;
      long seen = 0;
      Schema target = new LanceSchema(added, Map.of()).toArrow();
      while (values.loadNextBatch()) {
        VectorSchemaRoot batch = values.getVectorSchemaRoot();
        VectorSchemaRoot view = view(batch, SchemaCheck.align(target, batch.getSchema(), location));
        int done = 0;
        while (done < batch.getRowCount()) {
          while (frag < fragments.size() && taken[frag] == fragments.get(frag).liveRows()) {
            writers.finish(frag++, fragments);
          }
          if (frag == fragments.size()) {
            throw lengthMismatch(added, ds.countRows(), seen + done, "more");
          }
          int n = (int) Math.min(batch.getRowCount() - done, fragments.get(frag).liveRows() - taken[frag]);
          if (slots[frag] == null) {
            slots[frag] = slots(fragments.get(frag));
          }
          int[] idx = slots[frag].next(n);
          if (idx == null) {
            writers.write(frag, view, done, n, fragments);
          } else {
            try (VectorSchemaRoot slice = view.slice(done, n);
                VectorSchemaRoot wide = DeletedSlots.widen(slice, idx, ds.allocator())) {
              writers.write(frag, wide, 0, wide.getRowCount(), fragments);
            }
          }
          taken[frag] += n;
          done += n;
        }
        seen += done;
      }
      for (; frag < fragments.size(); frag++) {
        if (taken[frag] != fragments.get(frag).liveRows()) {
          throw lengthMismatch(added, ds.countRows(), seen, "fewer");
        }
        writers.finish(frag, fragments);
      }
      return writers.commit(added);
    } catch (IOException e) {
      throw new UncheckedIOException("Adding columns failed: " + location, e);
    } finally {
      writers.cleanUp();
    }
  }

  private DeletedSlots slots(Fragment f) throws IOException {
    return new DeletedSlots(Deletes.deletedRows(ds.store(), f, ds.allocator()), f.physicalRows());
  }

  /**
   * Columns computed by expressions over existing ones (Lance's SQL-expression transform): each
   * new column is nullable and of its expression's result type.
   */
  public Manifest addFromExpressions(Map<String, String> expressions) {
    if (expressions == null || expressions.isEmpty()) {
      throw new IllegalArgumentException("No columns to add: " + location);
    }
    List<String> names = new ArrayList<>();
    List<BoundExpression> bound = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (Map.Entry<String, String> e : expressions.entrySet()) {
      BoundExpression b = Expression.parse(e.getValue()).bindValue(ds.schema());
      if (b.resultType() instanceof ArrowType.Null) {
        throw new SchemaEvolutionException("Column '" + e.getKey() + "' would hold only NULL, which has no type; "
            + "add it with addNullColumns: " + location, e.getKey());
      }
      names.add(e.getKey());
      bound.add(b);
      fields.add(Field.nullable(e.getKey(), b.resultType()));
      used.addAll(b.columns());
    }
    List<String> reads = new ArrayList<>();
    ds.schema().fields().forEach(f -> {
      if (used.contains(f.name())) {
        reads.add(f.name());
      }
    });
    BufferAllocator allocator = ds.allocator();
    Function<VectorSchemaRoot, VectorSchemaRoot> compute = batch -> {
      List<FieldVector> out = new ArrayList<>();
      try {
        for (int i = 0; i < bound.size(); i++) {
          out.add(bound.get(i).evaluate(batch, names.get(i), allocator));
        }
      } catch (RuntimeException ex) {
        out.forEach(FieldVector::close);
        throw ex;
      }
      List<Field> fs = new ArrayList<>();
      out.forEach(v -> fs.add(v.getField()));
      return new VectorSchemaRoot(fs, out, batch.getRowCount());
    };
    return addFromFunction(new Schema(fields), reads, compute, ReadOptions.DEFAULT_BATCH_SIZE);
  }

  /**
   * Values computed from existing columns: each batch of {@code reads} (in scan order, one
   * fragment at a time) is given to {@code compute}, whose result must hold the {@code out}
   * columns for the same rows. The seam for expression-defined columns.
   */
  public Manifest addFromFunction(Schema out, List<String> reads, Function<VectorSchemaRoot, VectorSchemaRoot> compute,
      int batchSize) {
    List<LanceField> added = newFields(out.getFields(), false);
    // Reading no column still needs rows to count: read the first one and pass none on.
    List<LanceField> readFields = reads.isEmpty() ? List.of(ds.schema().fields().get(0)) : ds.fields(reads);
    List<Fragment> fragments = ds.manifest().fragments();
    Schema target = new LanceSchema(added, Map.of()).toArrow();
    ColumnWriters writers = new ColumnWriters(added);
    try {
      for (int frag = 0; frag < fragments.size(); frag++) {
        DeletedSlots slots = slots(fragments.get(frag));
        try (ArrowReader in = new DatasetReader(ds.store(), location, List.of(fragments.get(frag)), readFields,
            batchSize, ds.allocator())) {
          while (in.loadNextBatch()) {
            VectorSchemaRoot input = in.getVectorSchemaRoot();
            if (reads.isEmpty()) {
              input = new VectorSchemaRoot(List.of(), List.of(), input.getRowCount());
            }
            VectorSchemaRoot result = compute.apply(input);
            try {
              if (result == null) {
                throw new IllegalStateException("The column function returned no batch: " + location);
              }
              if (result.getRowCount() != input.getRowCount()) {
                throw new ColumnLengthMismatchException("The column function returned " + result.getRowCount()
                    + " rows for a batch of " + input.getRowCount() + " (columns " + names(added) + "): "
                    + location, added.get(0).name(), input.getRowCount(), result.getRowCount());
              }
              VectorSchemaRoot view = view(result, SchemaCheck.align(target, result.getSchema(), location));
              // New values line up with physical rows: deleted slots are filled in.
              try (VectorSchemaRoot wide = DeletedSlots.widen(view, slots.next(view.getRowCount()), ds.allocator())) {
                VectorSchemaRoot rows = wide == null ? view : wide;
                writers.write(frag, rows, 0, rows.getRowCount(), fragments);
              }
            } finally {
              if (result != null && result != input) {
                result.close();
              }
            }
          }
        }
        writers.finish(frag, fragments);
      }
      return writers.commit(added);
    } catch (IOException e) {
      throw new UncheckedIOException("Adding columns failed: " + location, e);
    } finally {
      writers.cleanUp();
    }
  }

  /** Nullable columns with no data file: every fragment reads them as nulls. */
  public Manifest addNulls(List<Field> columns) {
    List<LanceField> added = newFields(columns, true);
    Transaction txn = Transaction.merge(ds.version(), withFields(added), ds.manifest().fragments());
    return ds.table().newCommit(txn).commit();
  }

  // The new fields, with ids after every id the schema or a data file uses (a dropped field's id
  // may still be listed in older files' slots until tombstoned).
  public List<LanceField> newFields(List<Field> columns, boolean allNull) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("No columns to add: " + location);
    }
    Set<String> names = new HashSet<>();
    for (Field f : columns) {
      if (ds.schema().field(f.getName()).isPresent()) {
        throw new SchemaEvolutionException("Column '" + f.getName() + "' already exists in the dataset: " + location,
            f.getName());
      }
      if (!names.add(f.getName())) {
        throw new SchemaEvolutionException("Column '" + f.getName() + "' is given twice: " + location, f.getName());
      }
      if (allNull) {
        String notNull = firstNonNullable(f, f.getName());
        if (notNull != null) {
          throw new SchemaEvolutionException("All-null column '" + f.getName() + "' must be nullable, but '" + notNull
              + "' is not: " + location, f.getName());
        }
      }
    }
    int[] next = {maxFieldId() + 1};
    List<LanceField> out = new ArrayList<>();
    for (Field f : columns) {
      out.add(LanceField.fromArrow(f, next));
    }
    return out;
  }

  private static String firstNonNullable(Field f, String path) {
    if (!f.isNullable()) {
      return path;
    }
    for (Field c : f.getChildren()) {
      String p = firstNonNullable(c, path + "." + c.getName());
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  private int maxFieldId() {
    int max = -1;
    for (LanceField f : ds.schema().flatten()) {
      max = Math.max(max, f.id());
    }
    for (Fragment fr : ds.manifest().fragments()) {
      for (DataFile d : fr.files()) {
        for (int id : d.fields()) {
          max = Math.max(max, id);
        }
      }
    }
    return max;
  }

  public LanceSchema withFields(List<LanceField> added) {
    List<LanceField> all = new ArrayList<>(ds.schema().fields());
    all.addAll(added);
    return new LanceSchema(all, ds.schema().metadata());
  }

  private ColumnLengthMismatchException lengthMismatch(List<LanceField> added, long want, long got, String what) {
    return new ColumnLengthMismatchException("The new columns " + names(added) + " have " + what
        + " values than the dataset's " + want + " rows" + (what.equals("fewer") ? " (" + got + ")" : "")
        + ": " + location, added.get(0).name(), want, got);
  }

  private static List<String> names(List<LanceField> fields) {
    List<String> out = new ArrayList<>();
    fields.forEach(f -> out.add(f.name()));
    return out;
  }

  // A root over the batch's vectors in the new fields' order; it does not own them (never closed).
  private static VectorSchemaRoot view(VectorSchemaRoot batch, int[] order) {
    List<FieldVector> vectors = FragmentWriter.inOrder(batch, order);
    List<Field> fields = new ArrayList<>();
    vectors.forEach(v -> fields.add(v.getField()));
    return new VectorSchemaRoot(fields, vectors, batch.getRowCount());
  }

  /** One data file per fragment for the new fields, written in order; deleted on failure. */
  private final class ColumnWriters {
    private final LanceSchema schema;
    private final List<FragmentWriter> writers = new ArrayList<>();
    private final List<Long> rows = new ArrayList<>();
    private final Map<Integer, DataFile> files = new HashMap<>();
    /** Fragments whose file is being encoded in the background, oldest first. */
    private final ArrayDeque<Integer> pending = new ArrayDeque<>();
    private boolean committed;

    ColumnWriters(List<LanceField> added) {
      this.schema = new LanceSchema(added, Map.of());
    }

    long rows(int frag) {
      return frag < rows.size() ? rows.get(frag) : 0;
    }

    void write(int frag, VectorSchemaRoot view, int from, int n, List<Fragment> fragments) throws IOException {
      FragmentWriter w = writer(frag, fragments);
      if (from == 0 && n == view.getRowCount()) {
        w.write(view);
      } else {
        try (VectorSchemaRoot slice = view.slice(from, n)) {
          w.write(slice);
        }
      }
      rows.set(frag, rows.get(frag) + n);
      if (rows.get(frag) > fragments.get(frag).physicalRows()) {
        throw new ColumnLengthMismatchException("The new columns " + names(schema.fields()) + " have more values ("
            + rows.get(frag) + ") than fragment " + fragments.get(frag).id() + " has rows ("
            + fragments.get(frag).physicalRows() + "): " + location, schema.fields().get(0).name(),
            fragments.get(frag).physicalRows(), rows.get(frag));
      }
    }

    private FragmentWriter writer(int frag, List<Fragment> fragments) {
      while (writers.size() <= frag) {
        long fragRows = fragments.get(writers.size()).physicalRows();
        // One file per fragment: it must not roll over to a second file.
        WriteParams params = WriteParams.builder().maxRowsPerFile(Math.max(1, fragRows)).build();
        writers.add(new FragmentWriter(SessionState.of(ds).pools(), ds.store(), schema, ds.fileVersion(), params,
            "column addition"));
        rows.add(0L);
      }
      return writers.get(frag);
    }

    void finish(int frag, List<Fragment> fragments) throws IOException {
      Fragment f = fragments.get(frag);
      if (rows(frag) != f.physicalRows()) {
        throw new ColumnLengthMismatchException("The new columns " + names(schema.fields()) + " have "
            + rows(frag) + " values for fragment " + f.id() + " of " + f.physicalRows() + " rows: " + location,
            schema.fields().get(0).name(), f.physicalRows(), rows(frag));
      }
      // The file is encoded in the background while the next fragment is read; at most as many
      // files as the writers' pool has threads are pending, which bounds the memory they hold.
      writer(frag, fragments).closeAsync();
      pending.add(frag);
      while (pending.size() > SessionState.of(ds).pools().cpuThreads()) {
        collect(pending.removeFirst());
      }
    }

    private void collect(int frag) throws IOException {
      List<Fragment> written = writers.get(frag).finish();
      if (!written.isEmpty()) {
        files.put(frag, written.get(0).files().get(0));
      }
    }

    Manifest commit(List<LanceField> added) throws IOException {
      while (!pending.isEmpty()) {
        collect(pending.removeFirst());
      }
      List<Fragment> out = new ArrayList<>();
      List<Fragment> fragments = ds.manifest().fragments();
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < fragments.size(); i++) {
        Fragment f = fragments.get(i);
        DataFile d = files.get(i);
        // An empty fragment gets no file: it has no rows to hold values for.
        out.add(d == null ? f : Fragment.fromProto(f.proto().toBuilder().addFiles(d.proto()).build()));
      }
      writers.forEach(w -> keys.addAll(w.writtenKeys()));
      Transaction txn = Transaction.merge(ds.version(), withFields(added), out);
      // From here the commit owns the files (it deletes them only if it definitely fails).
      committed = true;
      return ds.table().newCommit(txn).cleanupOnFailure(keys).commit();
    }

    void cleanUp() {
      if (!committed) {
        writers.forEach(FragmentWriter::deleteAll);
      }
    }
  }

  // ---- dropping

  public Manifest drop(List<String> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("No columns to drop: " + location);
    }
    Set<Integer> dropped = new HashSet<>();
    for (String c : columns) {
      // A top-level name may itself contain a dot; otherwise the path goes into structs.
      LanceField f = ds.schema().field(c).orElseGet(() -> {
        List<LanceField> path = resolve(c);
        return path.get(path.size() - 1);
      });
      dropped.add(f.id());
    }
    List<LanceField> kept = without(ds.schema().fields(), dropped);
    if (kept.isEmpty()) {
      throw new SchemaEvolutionException("Cannot drop every column of the dataset: " + location, columns.get(0));
    }
    Set<Integer> live = new HashSet<>();
    kept.forEach(f -> f.flatten().forEach(x -> live.add(x.id())));
    for (Fragment f : ds.manifest().fragments()) {
      boolean anyFile = f.files().stream().anyMatch(d -> d.fields().stream().anyMatch(live::contains));
      if (!anyFile && f.physicalRows() > 0) {
        throw new SchemaEvolutionException("Cannot drop columns " + columns + ": fragment " + f.id()
            + " would keep no data file (the remaining columns are all-null there): " + location, columns.get(0));
      }
    }
    return commitProject(new LanceSchema(kept, ds.schema().metadata()));
  }

  // The fields minus the dropped ones; a struct left with no field goes too.
  private static List<LanceField> without(List<LanceField> fields, Set<Integer> dropped) {
    List<LanceField> out = new ArrayList<>();
    for (LanceField f : fields) {
      if (dropped.contains(f.id())) {
        continue;
      }
      if (f.isStruct() && !f.children().isEmpty()) {
        List<LanceField> kids = without(f.children(), dropped);
        if (kids.isEmpty()) {
          continue;
        }
        f = new LanceField(f.id(), f.name(), f.logicalType(), f.nullable(), kids, f.metadata());
      }
      out.add(f);
    }
    return out;
  }

  // ---- altering

  public Manifest alter(List<ColumnAlteration> alterations) {
    if (alterations.isEmpty()) {
      throw new IllegalArgumentException("No columns to alter: " + location);
    }
    Map<Integer, String> renames = new HashMap<>();
    Map<Integer, Boolean> nullability = new HashMap<>();
    for (ColumnAlteration a : alterations) {
      List<LanceField> path = resolve(a.path());
      LanceField f = path.get(path.size() - 1);
      if (a.newNullable().isPresent() && !a.newNullable().get() && f.nullable()) {
        throw new SchemaEvolutionException("Column '" + a.path() + "' is nullable and cannot be made non-nullable: "
            + location, a.path());
      }
      a.newNullable().ifPresent(n -> nullability.put(f.id(), n));
      a.newName().ifPresent(n -> renames.put(f.id(), n));
    }
    List<LanceField> fields = new ArrayList<>();
    for (LanceField f : ds.schema().fields()) {
      fields.add(rebuild(f, renames, nullability));
    }
    checkUniqueNames(fields, "");
    return commitProject(new LanceSchema(fields, ds.schema().metadata()));
  }

  private static LanceField rebuild(LanceField f, Map<Integer, String> renames, Map<Integer, Boolean> nullability) {
    List<LanceField> kids = new ArrayList<>();
    for (LanceField c : f.children()) {
      kids.add(rebuild(c, renames, nullability));
    }
    return new LanceField(f.id(), renames.getOrDefault(f.id(), f.name()), f.logicalType(),
        nullability.getOrDefault(f.id(), f.nullable()), kids, f.metadata());
  }

  private void checkUniqueNames(List<LanceField> siblings, String parent) {
    Set<String> seen = new HashSet<>();
    for (LanceField f : siblings) {
      String path = parent.isEmpty() ? f.name() : parent + "." + f.name();
      if (!seen.add(f.name())) {
        throw new SchemaEvolutionException("Column '" + path + "' would exist twice after renaming: " + location,
            path);
      }
      checkUniqueNames(f.children(), path);
    }
  }

  // The fields along a dotted path (top-level field first), looking inside structs.
  private List<LanceField> resolve(String path) {
    List<LanceField> out = new ArrayList<>();
    List<LanceField> level = ds.schema().fields();
    for (String part : path.split("\\.", -1)) {
      LanceField found = null;
      for (LanceField f : level) {
        if (f.name().equals(part)) {
          found = f;
        }
      }
      if (found == null) {
        throw new SchemaEvolutionException("Column '" + path + "' does not exist in the dataset: " + location, path);
      }
      out.add(found);
      level = found.isStruct() ? found.children() : List.of();
    }
    return out;
  }

  private Manifest commitProject(LanceSchema schema) {
    return ds.table().newCommit(Transaction.project(ds.version(), schema)).commit();
  }
}
