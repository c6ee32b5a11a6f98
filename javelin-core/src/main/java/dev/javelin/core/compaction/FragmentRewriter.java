package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.core.internal.SessionState;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.table.DataFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowLineage;
import dev.javelin.table.rowids.RowVersionSequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/**
 * Executes a fragment rewrite: streams the live rows of the task's fragments, in order, into new
 * fragments of one file each (a new one every {@code targetRowsPerFragment} rows, or once a file
 * has taken about {@code maxBytesPerFile} bytes of Arrow data). With stable row ids, the rows keep
 * their ids and versions: the old sequences without the deleted rows, cut where the files are cut.
 * Under a binary-copy mode, fragments without deletions and with one file layout are instead
 * copied page by page ({@link BinaryCopier}).
 */
final class FragmentRewriter {
  private FragmentRewriter() {}

  static CompactionTaskResult execute(Dataset at, CompactionTask task) {
    Manifest m = at.manifest();
    List<Fragment> fragments = TaskFragments.of(m, task, at.location());
    DefaultCompactionPlanner.checkIndices(m, fragments, task.options().deferIndexRemap(), at.location());
    CompactionOptions o = task.options();
    boolean stable = (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
    RowLineage lineage = stable ? lineageOf(at, fragments) : null;
    Set<Integer> live = new HashSet<>();
    m.schema().flatten().forEach(f -> live.add(f.id()));
    if (o.mode() != CompactionMode.REENCODE) {
      String why = BinaryCopier.whyNot(fragments);
      if (why == null) {
        NewFiles copies = new NewFiles(at.store(), m.fileVersion());
        try {
          List<Fragment> copied = new ArrayList<>();
          for (Fragment f : BinaryCopier.copy(at.store(), fragments, o.targetRowsPerFragment(), copies::track,
              SessionState.of(at).pools().io())) {
            copied.add(lineage == null ? f : lineage.next(f));
          }
          return new CompactionTaskResult(TaskKind.REWRITE_FRAGMENTS, task.readVersion(), task.fragmentIds(), copied,
              List.of(), copies.keys());
        } catch (UnsupportedFormatException e) {
          copies.deleteAll();
          why = e.getMessage();
        } catch (IOException | RuntimeException e) {
          copies.deleteAll();
          if (e instanceof IOException io) {
            throw new UncheckedIOException("Binary copy of fragments " + task.fragmentIds() + " failed: "
                + at.location(), io);
          }
          throw (RuntimeException) e;
        }
      }
      if (o.mode() == CompactionMode.FORCE_BINARY_COPY) {
        throw new CompactionException("Fragments " + task.fragmentIds() + " cannot be binary copied (" + why
            + ") and the mode is FORCE_BINARY_COPY: " + at.location());
      }
    }
    NewFiles files = new NewFiles(at.store(), m.fileVersion());
    List<Fragment> out = new ArrayList<>();
    try (ArrowReader r = at.newScan().fragments(fragments).batchSize(o.batchSize()).build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      NewFiles.Writer w = null;
      long bytes = 0;
      long left = 0; // live rows not yet written, to size the next file's buffers
      for (Fragment f : fragments) {
        left += f.liveRows();
      }
      while (r.loadNextBatch()) {
        int rows = root.getRowCount();
        int done = 0;
        while (done < rows) {
          if (w == null) {
            w = files.create(m.schema(), Math.min(o.targetRowsPerFragment(), left));
            bytes = 0;
          }
          long room = o.targetRowsPerFragment() - w.writer.numRows();
          int n = (int) Math.min(Math.min(room, rows - done), o.maxRowsPerGroup());
          try (VectorSchemaRoot slice = root.slice(done, n)) {
            w.writer.write(slice);
            for (FieldVector v : slice.getFieldVectors()) {
              bytes += v.getBufferSize();
            }
          }
          done += n;
          left -= n;
          boolean full = w.writer.numRows() >= o.targetRowsPerFragment()
              || (o.maxBytesPerFile().isPresent() && bytes >= o.maxBytesPerFile().getAsLong());
          if (full) {
            out.add(fragment(files, w, live, lineage));
            w = null;
          }
        }
      }
      if (w != null) {
        out.add(fragment(files, w, live, lineage));
      }
      return new CompactionTaskResult(TaskKind.REWRITE_FRAGMENTS, task.readVersion(), task.fragmentIds(), out,
          List.of(), files.keys());
    } catch (IOException | RuntimeException e) {
      files.deleteAll();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("Compaction of fragments " + task.fragmentIds() + " failed: "
            + at.location(), io);
      }
      throw (RuntimeException) e;
    }
  }

  private static Fragment fragment(NewFiles files, NewFiles.Writer w, Set<Integer> live, RowLineage lineage)
      throws IOException {
    long rows = w.writer.numRows();
    DataFile d = files.finish(w, live);
    Fragment f = Fragment.of(d, rows);
    return lineage == null ? f : lineage.next(f);
  }

  // The live rows' ids and versions, in row order, handed out fragment by fragment.
  private static RowLineage lineageOf(Dataset at, List<Fragment> fragments) {
    long total = fragments.stream().mapToLong(Fragment::liveRows).sum();
    RowLineage lineage = new RowLineage(new long[] {total});
    for (Fragment f : fragments) {
      RoaringBitmap deleted;
      try {
        deleted = Deletes.deletedRows(at.store(), f, at.allocator());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      RowIdSequence seq = f.rowIdSequence(at.store()).orElseThrow(() -> new CompactionException("Fragment "
          + f.id() + " has no row ids but the dataset has stable row ids: " + at.location()));
      Optional<RowVersionSequence> c = f.createdAtVersions(at.store());
      Optional<RowVersionSequence> u = f.lastUpdatedAtVersions(at.store());
      for (long i = 0; i < f.physicalRows(); i++) {
        if (deleted.contains((int) i)) {
          continue;
        }
        lineage.add(seq.get(i), c.isPresent() ? c.get().get(i) : RowLineage.NONE,
            u.isPresent() ? u.get().get(i) : RowLineage.NONE);
      }
    }
    return lineage;
  }
}
