package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.core.internal.SessionState;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileZip;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.InputFile;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a column repack: for each planned file, reads the base values of its columns from the
 * files holding them, batch by batch over every physical row (deleted rows included, so the new
 * file lines up with the fragment), and writes them to one new file. Columns keep their field ids
 * and the shape their old file gave them. Deletes what it wrote if any file fails. Under a
 * binary-copy mode the new files are instead zipped from the old ones page by page ({@link
 * LanceFileZip}); if that is impossible, TRY_BINARY_COPY re-encodes (logging why) and
 * FORCE_BINARY_COPY fails.
 */
final class ColumnRepacker {
  private static final Logger LOG = LoggerFactory.getLogger(ColumnRepacker.class);

  private ColumnRepacker() {}

  static CompactionTaskResult execute(Dataset at, CompactionTask task) {
    Manifest m = at.manifest();
    List<Fragment> frags = TaskFragments.of(m, task, at.location());
    if (frags.size() != 1) {
      throw new CompactionException("A column repack names one fragment, not " + task.fragmentIds() + ": "
          + at.location());
    }
    Fragment fragment = frags.get(0);
    FragmentColumns fc = new FragmentColumns(fragment, m.schema().fields());
    Set<Integer> live = new HashSet<>();
    m.schema().flatten().forEach(f -> live.add(f.id()));
    CompactionMode mode = task.options().mode();
    if (mode != CompactionMode.REENCODE) {
      NewFiles copies = new NewFiles(at.store(), m.fileVersion());
      String why;
      try {
        List<DataFile> out = new ArrayList<>();
        for (List<Integer> planned : task.repackFiles()) {
          out.add(zipOne(at, fc, planned, live, copies));
        }
        return new CompactionTaskResult(TaskKind.REPACK_COLUMNS, task.readVersion(), task.fragmentIds(), List.of(), out,
            copies.keys());
      } catch (UnsupportedFormatException e) {
        copies.deleteAll();
        why = e.getMessage();
      } catch (IOException | RuntimeException e) {
        copies.deleteAll();
        if (e instanceof IOException io) {
          throw new UncheckedIOException("Binary repack of fragment " + fragment.id() + " failed: " + at.location(),
              io);
        }
        throw (RuntimeException) e;
      }
      if (mode == CompactionMode.FORCE_BINARY_COPY) {
        throw new CompactionException("The columns of fragment " + fragment.id() + " cannot be binary copied (" + why
            + ") and the mode is FORCE_BINARY_COPY: " + at.location());
      }
      LOG.info("Repack of fragment " + fragment.id() + " re-encodes: its columns cannot be binary copied (" + why
          + "): " + at.location());
    }
    NewFiles files = new NewFiles(at.store(), m.fileVersion());
    List<DataFile> out = new ArrayList<>();
    try {
      for (List<Integer> planned : task.repackFiles()) {
        out.add(writeOne(at, fc, planned, live, files, task.options().batchSize()));
      }
      return new CompactionTaskResult(TaskKind.REPACK_COLUMNS, task.readVersion(), task.fragmentIds(), List.of(), out,
          files.keys());
    } catch (IOException | RuntimeException e) {
      files.deleteAll();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("Repack of fragment " + fragment.id() + " failed: " + at.location(), io);
      }
      throw (RuntimeException) e;
    }
  }

  // Which old file holds each column's values (the column is taken as that file has it).
  private static Map<DataFile, List<Integer>> sources(Dataset at, FragmentColumns fc, List<Integer> columns) {
    Map<DataFile, List<Integer>> bySource = new LinkedHashMap<>();
    for (int c : columns) {
      List<DataFile> h = fc.holders.get(c);
      if (h == null || h.size() != 1 || fc.pinned.contains(c)) {
        throw new CompactionException("Column (field id " + c + ") of fragment " + fc.fragment.id()
            + " cannot be repacked: it is held by " + (h == null ? 0 : h.size()) + " files: " + at.location());
      }
      bySource.computeIfAbsent(h.get(0), k -> new ArrayList<>()).add(c);
    }
    return bySource;
  }

  /**
   * Writes one planned file by copying its columns' encoded pages ({@link LanceFileZip}). Whole
   * top-level fields are copied, so a struct keeps its children; children the schema dropped are
   * recorded as tombstones, as the re-encoding path does.
   *
   * @throws UnsupportedFormatException if the files cannot be zipped
   */
  private static DataFile zipOne(Dataset at, FragmentColumns fc, List<Integer> columns, Set<Integer> live,
      NewFiles files) throws IOException {
    Map<DataFile, List<Integer>> bySource = sources(at, fc, columns);
    List<DataFile> order = new ArrayList<>(bySource.keySet());
    List<LanceFileZip.Pick> picks = new ArrayList<>();
    for (int c : columns) {
      picks.add(new LanceFileZip.Pick(order.indexOf(fc.holders.get(c).get(0)), c));
    }
    List<InputFile> in = SourceFiles.open(at.store(), order, SessionState.of(at).pools().io());
    try {
      String name = UUID.randomUUID() + ".lance";
      String key = "data/" + name;
      files.track(key);
      LanceFileZip.Result r = LanceFileZip.zip(in, picks, at.store().newOutputFile(key));
      if (r.rows() != fc.fragment.physicalRows()) {
        throw new CompactionException("Data files " + order.stream().map(DataFile::path).toList() + " have "
            + r.rows() + " rows but fragment " + fc.fragment.id() + " has " + fc.fragment.physicalRows() + ": "
            + at.location());
      }
      long size = r.fileSize();
      List<int[]> fields = new ArrayList<>();
      for (int[] p : r.fieldColumnIndices()) {
        fields.add(new int[] {live.contains(p[0]) ? p[0] : DataFile.TOMBSTONE, p[1]});
      }
      return DataFile.of(name, fields, r.version(), size);
    } finally {
      SourceFiles.close(in, null);
    }
  }

  private static DataFile writeOne(Dataset at, FragmentColumns fc, List<Integer> columns, Set<Integer> live,
      NewFiles files, int batchSize) throws IOException {
    Map<DataFile, List<Integer>> bySource = sources(at, fc, columns);
    List<LanceFileReader> readers = new ArrayList<>();
    List<ArrowReader> streams = new ArrayList<>();
    List<InputFile> in = SourceFiles.open(at.store(), new ArrayList<>(bySource.keySet()),
        SessionState.of(at).pools().io());
    try {
      Map<Integer, LanceField> shape = new LinkedHashMap<>();
      Map<Integer, int[]> where = new LinkedHashMap<>(); // column -> {stream, position}
      int source = 0;
      for (Map.Entry<DataFile, List<Integer>> e : bySource.entrySet()) {
        LanceFileReader r = LanceFileReader.open(in.get(source), at.allocator());
        in.set(source++, null); // the reader owns it now
        readers.add(r);
        if (r.numRows() != fc.fragment.physicalRows()) {
          throw new CompactionException("Data file " + e.getKey().path() + " has " + r.numRows() + " rows but fragment "
              + fc.fragment.id() + " has " + fc.fragment.physicalRows() + ": " + at.location());
        }
        List<String> names = new ArrayList<>();
        for (int c : e.getValue()) {
          LanceField inFile = r.lanceSchema().fields().stream().filter(f -> f.id() == c).findFirst()
              .orElseThrow(() -> new CompactionException("Data file " + e.getKey().path() + " does not hold field id "
                  + c + " that the manifest says it does: " + at.location()));
          shape.put(c, inFile);
          where.put(c, new int[] {streams.size(), names.size()});
          names.add(inFile.name());
        }
        streams.add(r.read(ReadOptions.builder().columns(names).batchSize(batchSize).build()));
      }
      List<LanceField> fields = new ArrayList<>();
      for (int c : columns) {
        fields.add(shape.get(c));
      }
      NewFiles.Writer w = files.create(new LanceSchema(fields, Map.of()), fc.fragment.physicalRows());
      while (true) {
        int rows = -1;
        boolean more = false;
        for (int s = 0; s < streams.size(); s++) {
          boolean got = streams.get(s).loadNextBatch();
          int n = got ? streams.get(s).getVectorSchemaRoot().getRowCount() : 0;
          if (s > 0 && (got != more || n != rows)) {
            throw new IllegalStateException("Data files of fragment " + fc.fragment.id()
                + " gave batches of different sizes: " + at.location());
          }
          more = got;
          rows = n;
        }
        if (!more) {
          break;
        }
        List<FieldVector> vectors = new ArrayList<>();
        List<Field> arrow = new ArrayList<>();
        for (int c : columns) {
          int[] p = where.get(c);
          FieldVector v = streams.get(p[0]).getVectorSchemaRoot().getVector(p[1]);
          vectors.add(v);
          arrow.add(v.getField());
        }
        // A view over the readers' vectors; they own them, so it is not closed.
        w.writer.write(new VectorSchemaRoot(arrow, vectors, rows));
      }
      return files.finish(w, live);
    } finally {
      for (ArrowReader s : streams) {
        s.close();
      }
      for (LanceFileReader r : readers) {
        r.close();
      }
      in.removeIf(f -> f == null);
      SourceFiles.close(in, null);
    }
  }
}
