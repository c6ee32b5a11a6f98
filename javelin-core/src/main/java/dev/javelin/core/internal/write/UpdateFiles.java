package dev.javelin.core.internal.write;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.WriteParams;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Commit;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Transaction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The files one attempt of an update writes, and its commit, shared by the row, column and
 * overlay rewrites: new data files (through {@link #writer}) and other files such as merged
 * deletion files ({@link #pending}). {@link #commit} hands them all to the table's commit, which
 * deletes them only if it definitely fails; closing without a commit deletes them, so a failed
 * attempt leaves no file behind.
 */
public final class UpdateFiles implements AutoCloseable {
  private final Dataset at;
  private final List<FragmentWriter> writers = new ArrayList<>();
  private final PendingFiles pending;
  private boolean handedOver;

  /** Files written for an update of version {@code at}; none yet. */
  public UpdateFiles(Dataset at) {
    this.at = at;
    this.pending = new PendingFiles(at.store());
  }

  /** A new writer of data files of {@code schema} in the version's file format. */
  public FragmentWriter writer(LanceSchema schema, WriteParams params) {
    FragmentWriter w = new FragmentWriter(SessionState.of(at).pools(), at.store(), schema, at.fileVersion(), params,
        "update");
    writers.add(w);
    return w;
  }

  /** Files other than data files written for the update (kept or deleted with the rest). */
  public PendingFiles pending() {
    return pending;
  }

  /** One fragment's new data file and how many of its rows the update matched. */
  public record NewFile(DataFile file, long matched) {}

  /** Rewrites one fragment: reads its rows, writes its new file batch by batch, and takes the file. */
  public interface FragmentPass {
    /** The fragment's rows, with the columns the update reads. */
    ArrowReader reader() throws IOException;

    /**
     * Writes one batch into the fragment's new file.
     *
     * @param sel the rows of the batch the filter matched, or null for all of them
     * @return how many rows of the batch the update matched
     */
    long write(FragmentWriter w, VectorSchemaRoot batch, int[] sel) throws IOException;

    /** Takes the fragment's finished new file (only when some row matched). */
    void rewritten(NewFile file);
  }

  /** Starts the rewrite of one fragment. */
  @FunctionalInterface
  public interface PassOf {
    FragmentPass start(Fragment f) throws IOException;
  }

  /**
   * Gives each of {@code fragments} that has rows one new file of {@code schema}: every batch of
   * its pass's reader goes to the pass with the rows {@code where} (null: every row) selects; a
   * file in which no row matched is deleted, any other handed to the pass.
   *
   * @return how many rows matched in all
   */
  public long rewriteFragments(List<Fragment> fragments, LanceSchema schema, BoundExpression where, PassOf passOf)
      throws IOException {
    long count = 0;
    for (Fragment f : fragments) {
      if (f.physicalRows() == 0) {
        continue;
      }
      FragmentPass pass = passOf.start(f);
      FragmentWriter w = writer(schema, WriteParams.builder().maxRowsPerFile(f.physicalRows()).build());
      long matched = 0;
      try (ArrowReader in = pass.reader()) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot batch = in.getVectorSchemaRoot();
          matched += pass.write(w, batch, where == null ? null : where.select(batch));
        }
      }
      if (matched == 0) {
        w.deleteAll();
        continue;
      }
      pass.rewritten(new NewFile(w.finish().get(0).files().get(0), matched));
      count += matched;
    }
    return count;
  }

  /**
   * Commits {@code txn} (rebased over concurrent commits by {@code rebase}, or none when null) with
   * every file written so far, which the commit owns from here on.
   */
  public UpdateResult commit(Transaction txn, long count, Commit.Rebase rebase) {
    List<String> keys = new ArrayList<>();
    writers.forEach(w -> keys.addAll(w.writtenKeys()));
    keys.addAll(pending.keys());
    handedOver = true;
    pending.commit();
    Manifest m = at.table().newCommit(txn).cleanupOnFailure(keys).rebase(rebase).commit();
    return new UpdateResult(at.at(m), count);
  }

  /** Unless {@link #commit} was called, deletes every file written (and any file still open). */
  @Override
  public void close() {
    if (!handedOver) {
      writers.forEach(FragmentWriter::deleteAll);
      pending.close();
    }
  }

  /** A batch over {@code vectors}: a view that owns none of them, so it is never closed. */
  public static VectorSchemaRoot view(List<FieldVector> vectors, int rows) {
    List<Field> fields = new ArrayList<>();
    vectors.forEach(v -> fields.add(v.getField()));
    return new VectorSchemaRoot(fields, vectors, rows);
  }
}
