package dev.javelin.format;

import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.internal.encoding.EncodingStrategy;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.InputFile;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binary zip: writes one file holding, side by side, top-level fields taken from several files
 * with the same rows (a column repack's binary-copy mode). Each field's columns are copied as
 * they are, page buffers and column-level buffers included, without decoding; only buffer
 * positions change. A column keeps all its pages, so unlike {@link LanceFileConcat} column-level
 * buffers (shared by a column's pages) can be carried. The output's schema is the picked fields,
 * ids kept, in the order picked.
 *
 * <p>The sources must have one file version (2.0, 2.1 or 2.2) and row count, and no global buffer but
 * the schema: an encoding may refer to an extra global buffer by its index, and indices from
 * several files would collide in one file.
 */
public final class LanceFileZip {
  private LanceFileZip() {}

  /** The top-level field {@code fieldId} of source number {@code source}. */
  public record Pick(int source, int fieldId) {}

  /**
   * What was written.
   *
   * @param rows the row count (every source's)
   * @param version the file version (every source's)
   * @param fieldColumnIndices (field id, column index) pairs, pre-order, −1 for a field with no
   *     column of its own, as {@link LanceFileWriter#fieldColumnIndices()} gives them
   * @param fileSize the written file's size in bytes
   */
  public record Result(long rows, LanceFileVersion version, List<int[]> fieldColumnIndices, long fileSize) {}

  /**
   * Checks that the picks can be zipped, without writing anything.
   *
   * @throws UnsupportedFormatException naming the first source that cannot, and why
   * @throws IllegalArgumentException if the picks are malformed (no such source or field, a field
   *     id twice)
   */
  public static void check(List<InputFile> sources, List<Pick> picks) throws IOException {
    plan(sources, picks);
  }

  /**
   * Writes the picked fields of {@code sources} to {@code output}. On failure the partial output
   * is removed.
   *
   * @throws UnsupportedFormatException if the sources cannot be zipped (nothing is written)
   * @throws IllegalArgumentException if the picks are malformed (nothing is written)
   */
  public static Result zip(List<InputFile> sources, List<Pick> picks, OutputFile output) throws IOException {
    Plan p = plan(sources, picks);
    ContainerWriter w = new ContainerWriter(output);
    try {
      List<ColumnMetadata> columns = new ArrayList<>();
      for (int i = 0; i < picks.size(); i++) {
        InputFile in = sources.get(picks.get(i).source());
        FileMetadata m = p.metas.get(picks.get(i).source());
        int first = p.firstColumn.get(i);
        for (int c = first; c < first + p.columnCount.get(i); c++) {
          columns.add(copyColumn(in, m.columns().get(c), w));
        }
      }
      LanceSchema schema = new LanceSchema(p.fields, Map.of());
      FileDescriptor fd = FileDescriptor.newBuilder().setSchema(schema.toProto()).setLength(p.rows).build();
      w.finish(columns, fd.toByteArray(), p.version);
      return new Result(p.rows, p.version, p.fieldColumns, w.length());
    } catch (IOException | RuntimeException e) {
      w.abort();
      throw e;
    }
  }

  private static ColumnMetadata copyColumn(InputFile in, ColumnMetadata col, ContainerWriter w) throws IOException {
    ColumnMetadata.Builder b = col.toBuilder().clearBufferOffsets().clearPages();
    for (int k = 0; k < col.getBufferOffsetsCount(); k++) {
      b.addBufferOffsets(copy(in, col.getBufferOffsets(k), col.getBufferSizes(k), w));
    }
    for (ColumnMetadata.Page page : col.getPagesList()) {
      // Rows are not moved, so a 2.1 page's first row (priority) stays as it is.
      ColumnMetadata.Page.Builder np = page.toBuilder().clearBufferOffsets();
      for (int k = 0; k < page.getBufferOffsetsCount(); k++) {
        np.addBufferOffsets(copy(in, page.getBufferOffsets(k), page.getBufferSizes(k), w));
      }
      b.addPages(np);
    }
    return b.build();
  }

  private static long copy(InputFile in, long position, long size, ContainerWriter w) throws IOException {
    ByteBuffer bytes = size == 0 ? ByteBuffer.allocate(0) : in.read(position, Math.toIntExact(size));
    return w.write(bytes);
  }

  /** The checked inputs: per pick, its field and its columns' range in its source. */
  private static final class Plan {
    final List<FileMetadata> metas = new ArrayList<>();
    final List<LanceField> fields = new ArrayList<>();
    final List<Integer> firstColumn = new ArrayList<>();
    final List<Integer> columnCount = new ArrayList<>();
    final List<int[]> fieldColumns = new ArrayList<>();
    LanceFileVersion version;
    long rows;
  }

  private static Plan plan(List<InputFile> sources, List<Pick> picks) throws IOException {
    if (sources.isEmpty() || picks.isEmpty()) {
      throw new IllegalArgumentException("Nothing to zip: " + sources.size() + " sources, " + picks.size()
          + " fields");
    }
    Plan p = new Plan();
    for (InputFile in : sources) {
      FileMetadata m = FileMetadata.read(in);
      String loc = in.location();

      if (m.numGlobalBuffers() != 1) {
        throw new UnsupportedFormatException(loc, "Binary zip needs files whose only global buffer is the schema, "
            + "this one has " + m.numGlobalBuffers() + " (encodings may refer to the others by index, which would "
            + "collide with other files' in one file)");
      }
      if (p.version == null) {
        p.version = m.version();
        p.rows = m.numRows();
      } else if (m.version() != p.version) {
        throw new UnsupportedFormatException(loc, "Binary zip needs one file version: " + m.version() + " vs "
            + p.version);
      } else if (m.numRows() != p.rows) {
        throw new UnsupportedFormatException(loc, "Binary zip needs one row count: " + m.numRows() + " vs "
            + p.rows);
      }
      p.metas.add(m);
    }
    EncodingStrategy strategy = EncodingStrategy.forVersion(p.version);
    Set<Integer> ids = new HashSet<>();
    int outColumn = 0;
    for (Pick pick : picks) {
      if (pick.source() < 0 || pick.source() >= sources.size()) {
        throw new IllegalArgumentException("No source " + pick.source() + " among " + sources.size());
      }
      FileMetadata m = p.metas.get(pick.source());
      String loc = sources.get(pick.source()).location();
      int column = 0;
      LanceField field = null;
      for (LanceField f : m.schema().fields()) {
        if (f.id() == pick.fieldId()) {
          field = f;
          break;
        }
        column += strategy.numColumns(f);
      }
      if (field == null) {
        throw new IllegalArgumentException("No top-level field id " + pick.fieldId() + " in " + loc);
      }
      for (LanceField f : field.flatten()) {
        if (!ids.add(f.id())) {
          throw new IllegalArgumentException("Field id " + f.id() + " is picked twice (from " + loc + ")");
        }
      }
      int count = strategy.numColumns(field);
      for (int c = column; c < column + count; c++) {
        checkEncodings(loc, m.columns().get(c), c);
      }
      int mapped = mapColumns(field, outColumn, p.version, p.fieldColumns) - outColumn;
      if (mapped != count) {
        throw new UnsupportedFormatException(loc, "Binary zip cannot tell which of the " + count + " columns of field "
            + field.name() + " belong to which of its fields");
      }
      p.fields.add(field);
      p.firstColumn.add(column);
      p.columnCount.add(count);
      outColumn += count;
    }
    return p;
  }

  // A deferred encoding holds a file position of its own, which a copy would have to rewrite.
  private static void checkEncodings(String loc, ColumnMetadata col, int index) {
    boolean deferred = col.getEncoding().getLocationCase() == Encoding.LocationCase.INDIRECT;
    for (ColumnMetadata.Page page : col.getPagesList()) {
      deferred |= page.getEncoding().getLocationCase() == Encoding.LocationCase.INDIRECT;
    }
    if (deferred) {
      throw new UnsupportedFormatException(loc, "Binary zip cannot copy column " + index
          + ": it has a deferred encoding");
    }
  }

  // Records (field id, column index) as LanceFileWriter does: pre-order, −1 for fields with no column.
  private static int mapColumns(LanceField f, int column, LanceFileVersion version, List<int[]> out) {
    boolean hasColumn = version == LanceFileVersion.V2_0 || !(f.isStruct() || f.isList());
    out.add(new int[] {f.id(), hasColumn ? column : -1});
    int next = hasColumn ? column + 1 : column;
    for (LanceField c : f.children()) {
      next = mapColumns(c, next, version, out);
    }
    return next;
  }
}
