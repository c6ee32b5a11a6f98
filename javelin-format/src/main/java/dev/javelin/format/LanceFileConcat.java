package dev.javelin.format;

import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.io.InputFile;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary copy: writes one file holding the rows of several files, in order, by copying their
 * encoded pages without decoding them (compaction's binary-copy mode). The sources must have the
 * same file version, schema and column encodings, and no column-level or extra global buffers
 * (which hold state pages share and cannot be concatenated); page buffers are copied as they are
 * (each file's pages as one range where they lie together) and only their positions, and in 2.1
 * the pages' first rows, change.
 */
public final class LanceFileConcat {
  private LanceFileConcat() {}

  /** What a concatenation wrote: its rows and the file's size in bytes. */
  public record Result(long rows, long fileSize) {}

  /**
   * Checks that {@code sources} can be concatenated, without writing anything.
   *
   * @throws UnsupportedFormatException naming the first source that cannot, and why
   */
  public static void check(List<InputFile> sources) throws IOException {
    metadata(sources);
  }

  /**
   * Writes the concatenation of {@code sources} to {@code output}. On failure the partial output
   * is removed.
   *
   * @throws UnsupportedFormatException if the sources cannot be concatenated (nothing is written)
   */
  public static Result concat(List<InputFile> sources, OutputFile output) throws IOException {
    List<FileMetadata> metas = metadata(sources);
    FileMetadata first = metas.get(0);
    int columns = first.columns().size();
    List<ColumnMetadata.Builder> out = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      out.add(ColumnMetadata.newBuilder().setEncoding(first.columns().get(c).getEncoding()));
    }
    ContainerWriter w = new ContainerWriter(output);
    long rows = 0;
    try {
      for (int s = 0; s < sources.size(); s++) {
        InputFile in = sources.get(s);
        FileMetadata m = metas.get(s);
        // A file's pages normally fill its start, before the schema and metadata: that range is
        // copied as one (on an object store that copies between objects, without downloading it),
        // and every page moves by the same amount. Otherwise each buffer is copied on its own.
        long pagesEnd = pagesEnd(m);
        long base = pagesEnd >= 0 ? w.copy(in, 0, pagesEnd) : -1;
        for (int c = 0; c < columns; c++) {
          for (ColumnMetadata.Page p : m.columns().get(c).getPagesList()) {
            ColumnMetadata.Page.Builder np = p.toBuilder().clearBufferOffsets();
            for (int b = 0; b < p.getBufferOffsetsCount(); b++) {
              long size = p.getBufferSizes(b);
              if (base >= 0) {
                np.addBufferOffsets(base + p.getBufferOffsets(b));
              } else {
                ByteBuffer bytes = size == 0 ? ByteBuffer.allocate(0) : in.read(p.getBufferOffsets(b), Math.toIntExact(size));
                np.addBufferOffsets(w.write(bytes));
              }
            }
            // 2.1 pages carry their first row; 2.0 pages carry 0 and are read in order.
            if (first.version() != LanceFileVersion.V2_0) {
              np.setPriority(p.getPriority() + rows);
            }
            out.get(c).addPages(np);
          }
        }
        rows += m.numRows();
      }
      List<ColumnMetadata> cols = new ArrayList<>();
      out.forEach(b -> cols.add(b.build()));
      FileDescriptor fd = FileDescriptor.newBuilder().setSchema(first.schema().toProto()).setLength(rows).build();
      w.finish(cols, fd.toByteArray(), first.version());
      return new Result(rows, w.length());
    } catch (IOException | RuntimeException e) {
      w.abort();
      throw e;
    }
  }

  /**
   * The end of the range at a file's start that holds all its page buffers, or -1 if a global
   * buffer lies inside that range (then it is not only pages).
   */
  private static long pagesEnd(FileMetadata m) {
    long end = 0;
    for (ColumnMetadata c : m.columns()) {
      for (ColumnMetadata.Page p : c.getPagesList()) {
        for (int b = 0; b < p.getBufferOffsetsCount(); b++) {
          end = Math.max(end, p.getBufferOffsets(b) + p.getBufferSizes(b));
        }
      }
    }
    for (int g = 0; g < m.numGlobalBuffers(); g++) {
      if (m.globalBuffer(g)[0] < end) {
        return -1;
      }
    }
    return end;
  }

  private static List<FileMetadata> metadata(List<InputFile> sources) throws IOException {
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("Nothing to concatenate");
    }
    List<FileMetadata> metas = new ArrayList<>();
    FileMetadata first = null;
    for (InputFile in : sources) {
      FileMetadata m = FileMetadata.read(in);
      String loc = in.location();
      if (m.numGlobalBuffers() != 1) {
        throw new UnsupportedFormatException(loc, "Binary copy needs files with one global buffer, this one has "
            + m.numGlobalBuffers());
      }
      for (ColumnMetadata c : m.columns()) {
        if (c.getBufferOffsetsCount() > 0) {
          throw new UnsupportedFormatException(loc, "Binary copy cannot concatenate column-level buffers");
        }
      }
      if (first == null) {
        first = m;
      } else if (m.version() != first.version()) {
        throw new UnsupportedFormatException(loc, "Binary copy needs one file version: " + m.version() + " vs "
            + first.version());
      } else if (!m.schema().toProto().equals(first.schema().toProto())) {
        throw new UnsupportedFormatException(loc, "Binary copy needs one schema in every file");
      } else if (m.columns().size() != first.columns().size()) {
        throw new UnsupportedFormatException(loc, "Binary copy needs the same columns in every file");
      } else {
        for (int c = 0; c < m.columns().size(); c++) {
          if (!m.columns().get(c).getEncoding().equals(first.columns().get(c).getEncoding())) {
            throw new UnsupportedFormatException(loc, "Binary copy needs the same encoding of column " + c
                + " in every file");
          }
        }
      }
      metas.add(m);
    }
    return metas;
  }
}
