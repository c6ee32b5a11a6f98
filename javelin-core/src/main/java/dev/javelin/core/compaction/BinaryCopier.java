package dev.javelin.core.compaction;

import dev.javelin.format.LanceFileConcat;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;

/**
 * A fragment rewrite by binary copy: the fragments' i-th data files are concatenated page by page
 * ({@link LanceFileConcat}) into each new fragment's i-th file, so nothing is decoded. New
 * fragments are cut at source fragment boundaries, at about {@code targetRowsPerFragment} rows.
 */
final class BinaryCopier {
  private BinaryCopier() {}

  /** Why the fragments cannot be binary copied, or null if they can (from manifest metadata). */
  static String whyNot(List<Fragment> fragments) {
    Fragment first = fragments.get(0);
    for (Fragment f : fragments) {
      if (f.physicalRows() != f.liveRows()) {
        return "fragment " + f.id() + " has deleted rows";
      }
      if (!f.overlays().isEmpty()) {
        // Copied pages hold the base values only; the overlays' newer values must be folded in.
        return "fragment " + f.id() + " has data overlays";
      }
      if (f.files().size() != first.files().size()) {
        return "fragments " + first.id() + " and " + f.id() + " have different numbers of data files";
      }
      for (int i = 0; i < f.files().size(); i++) {
        DataFile a = first.files().get(i);
        DataFile b = f.files().get(i);
        if (!a.fields().equals(b.fields()) || !a.columnIndices().equals(b.columnIndices())
            || a.fileMajorVersion() != b.fileMajorVersion() || a.fileMinorVersion() != b.fileMinorVersion()) {
          return "fragments " + first.id() + " and " + f.id() + " lay out their columns differently";
        }
      }
    }
    return null;
  }

  /**
   * Writes the new fragments (ids unassigned) and returns them.
   *
   * @throws UnsupportedFormatException if a file's encoding cannot be concatenated
   */
  static List<Fragment> copy(ObjectStore store, List<Fragment> fragments, long targetRows, NewKeys written,
      ExecutorService io) throws IOException {
    List<List<Fragment>> runs = new ArrayList<>();
    List<Fragment> run = new ArrayList<>();
    long rows = 0;
    for (Fragment f : fragments) {
      if (!run.isEmpty() && rows + f.physicalRows() > targetRows) {
        runs.add(run);
        run = new ArrayList<>();
        rows = 0;
      }
      run.add(f);
      rows += f.physicalRows();
    }
    runs.add(run);
    List<Fragment> out = new ArrayList<>();
    for (List<Fragment> r : runs) {
      out.add(copyRun(store, r, written, io));
    }
    return out;
  }

  private static Fragment copyRun(ObjectStore store, List<Fragment> run, NewKeys written, ExecutorService io)
      throws IOException {
    List<DataFile> files = new ArrayList<>();
    long rows = 0;
    for (int slot = 0; slot < run.get(0).files().size(); slot++) {
      List<DataFile> sources = new ArrayList<>();
      for (Fragment f : run) {
        sources.add(f.files().get(slot));
      }
      List<InputFile> in = SourceFiles.openForCopy(store, sources, io);
      try {
        String name = UUID.randomUUID() + ".lance";
        String key = "data/" + name;
        written.add(key);
        LanceFileConcat.Result r = LanceFileConcat.concat(in, store.newOutputFile(key));
        rows = r.rows();
        files.add(DataFile.fromProto(run.get(0).files().get(slot).proto().toBuilder().setPath(name)
            .setFileSizeBytes(r.fileSize()).clearBaseId().build())); // written to this dataset's own base
      } finally {
        SourceFiles.close(in, null);
      }
    }
    Fragment f = Fragment.of(files.get(0), rows);
    var b = f.proto().toBuilder().clearFiles();
    files.forEach(d -> b.addFiles(d.proto()));
    return Fragment.fromProto(b.build());
  }

  /** Collects the keys written, for cleanup. */
  interface NewKeys {
    void add(String key);
  }
}
