package dev.javelin.cli;

import dev.javelin.format.FileInfo;
import dev.javelin.format.schema.LanceField;
import java.util.List;

/**
 * {@code file info} for people:
 *
 * <pre>
 * file     data.lance
 * version  2.1
 * rows     300
 * size     14.0 KiB (14,336 bytes)
 *
 * schema (field id, name, type):
 *   0  id      int64 not null
 *   1  tags    list
 *   2    item  int32
 *
 * columns (column, field, pages, size; buffer sizes in bytes):
 *   0  id         field 0  1 page   2.3 KiB
 *       page 0  300 rows  buffers [2400]  MiniBlock(value=Flat(64), num_buffers=1)
 * </pre>
 */
final class InfoText {
  private InfoText() {}

  /**
   * Renders a file's description.
   *
   * @param size the file's size in bytes, or −1 if not known
   */
  static String render(FileInfo info, String location, long size) {
    StringBuilder b = new StringBuilder();
    b.append("file     ").append(location).append('\n');
    b.append("version  ").append(info.version()).append('\n');
    b.append("rows     ").append(Formats.number(info.numRows())).append('\n');
    if (size >= 0) {
      b.append("size     ").append(Formats.size(size)).append(" (").append(Formats.count(size, "byte")).append(")\n");
    }
    if (!info.schema().metadata().isEmpty()) {
      b.append("metadata ").append(info.schema().metadata()).append('\n');
    }

    b.append('\n');
    schema(b, info.schema().fields());
    int idWidth = idWidth(info.schema().fields());

    List<FileInfo.Column> columns = info.columns();
    int colWidth = String.valueOf(Math.max(0, columns.size() - 1)).length();
    int pathWidth = 0;
    for (FileInfo.Column c : columns) {
      pathWidth = Math.max(pathWidth, DisplayWidth.of(path(c)));
    }
    b.append("\ncolumns (column, field, pages, size; buffer sizes in bytes):\n");
    String pageIndent = "  " + " ".repeat(colWidth) + "    ";
    for (FileInfo.Column c : columns) {
      b.append("  ").append(pad(String.valueOf(c.index()), colWidth, true)).append("  ")
          .append(pad(path(c), pathWidth, false))
          .append("  field ").append(pad(c.field() == null ? "?" : String.valueOf(c.field().id()), idWidth, false))
          .append("  ").append(c.pages().size()).append(c.pages().size() == 1 ? " page " : " pages")
          .append("  ").append(Formats.size(c.totalBytes()));
      if (!c.encoding().equals("Values")) {
        b.append("  ").append(c.encoding());
      }
      if (c.bufferSizes().length > 0) {
        b.append("  column buffers ").append(list(c.bufferSizes()));
      }
      b.append('\n');
      for (FileInfo.Page p : c.pages()) {
        b.append(pageIndent).append("page ").append(p.index())
            .append("  ").append(Formats.count(p.rows(), "row"))
            .append("  buffers ").append(list(p.bufferSizes()))
            .append("  ").append(p.encoding()).append('\n');
      }
    }
    return b.toString();
  }

  /** The "schema (field id, name, type):" block, nested fields indented. */
  static void schema(StringBuilder b, List<LanceField> fields) {
    int idWidth = idWidth(fields);
    int nameWidth = 0;
    for (LanceField f : fields) {
      nameWidth = Math.max(nameWidth, nameWidth(f, 0));
    }
    b.append("schema (field id, name, type):\n");
    for (LanceField f : fields) {
      field(b, f, 0, idWidth, nameWidth);
    }
  }

  private static int idWidth(List<LanceField> fields) {
    int w = 1;
    for (LanceField top : fields) {
      for (LanceField f : top.flatten()) {
        w = Math.max(w, String.valueOf(f.id()).length());
      }
    }
    return w;
  }

  private static String path(FileInfo.Column c) {
    return c.path() == null ? "(no field)" : c.path();
  }

  private static int nameWidth(LanceField f, int depth) {
    int w = 2 * depth + DisplayWidth.of(f.name());
    for (LanceField c : f.children()) {
      w = Math.max(w, nameWidth(c, depth + 1));
    }
    return w;
  }

  private static void field(StringBuilder b, LanceField f, int depth, int idWidth, int nameWidth) {
    b.append("  ").append(pad(String.valueOf(f.id()), idWidth, true)).append("  ")
        .append(pad("  ".repeat(depth) + f.name(), nameWidth, false)).append("  ")
        .append(typeName(f)).append(f.nullable() ? "" : " not null");
    if (!f.metadata().isEmpty()) {
      b.append("  ").append(f.metadata());
    }
    b.append('\n');
    for (LanceField c : f.children()) {
      field(b, c, depth + 1, idWidth, nameWidth);
    }
  }

  // Lance's logical type, but a map shows its key and value types, as in "map<string, int32>".
  private static String typeName(LanceField f) {
    if (f.isMap() && f.children().size() == 1 && f.children().get(0).children().size() == 2) {
      List<LanceField> kv = f.children().get(0).children();
      return "map<" + typeName(kv.get(0)) + ", " + typeName(kv.get(1)) + ">";
    }
    return f.logicalType();
  }

  private static String list(long[] values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      b.append(i == 0 ? "" : ", ").append(values[i]);
    }
    return b.append(']').toString();
  }

  static String pad(String s, int width, boolean right) {
    return DisplayWidth.pad(s, width, right);
  }
}
