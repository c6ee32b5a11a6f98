package dev.javelin.format;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.javelin.common.Json;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.Encodings20;
import dev.javelin.format.proto.Encodings21;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Lance file holds, as {@code javelin file info} shows it: version, rows, schema with field
 * ids, and each column with its pages, their buffer sizes and a one-line description of their
 * encoding, such as {@code Nullable(NoNull(Flat(64)))} or
 * {@code MiniBlock(def=Flat(16), value=Flat(32), layers=[NULLABLE_ITEM], num_buffers=1)}.
 *
 * <p>Encodings are described generically from their protobuf messages, so an encoding added to
 * the .proto files needs no code here. Immutable.
 */
public final class FileInfo {
  private static final Map<String, Descriptor> ENCODING_TYPES = encodingTypes();

  private final LanceFileVersion version;
  private final LanceSchema schema;
  private final long numRows;
  private final List<Column> columns;

  private FileInfo(LanceFileVersion version, LanceSchema schema, long numRows, List<Column> columns) {
    this.version = version;
    this.schema = schema;
    this.numRows = numRows;
    this.columns = List.copyOf(columns);
  }

  /** The description of a file whose metadata has been read. */
  public static FileInfo of(FileMetadata metadata) {
    return of(metadata.version(), metadata.schema(), metadata.numRows(), metadata.columns());
  }

  /**
   * The description of a file from its parts. Columns are matched to fields the way the version
   * lays them out: in 2.0 every field has a column, in pre-order; in 2.1 only leaf fields (neither
   * struct nor list) do. A column beyond what the schema accounts for gets no field.
   */
  public static FileInfo of(
      LanceFileVersion version, LanceSchema schema, long numRows, List<ColumnMetadata> columns) {
    List<LanceField> owners = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    for (LanceField f : schema.fields()) {
      collectColumns(version, f, "", owners, paths);
    }
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      ColumnMetadata cm = columns.get(i);
      List<Page> pages = new ArrayList<>();
      for (int p = 0; p < cm.getPagesCount(); p++) {
        ColumnMetadata.Page page = cm.getPages(p);
        pages.add(new Page(p, page.getLength(), page.getPriority(), toArray(page.getBufferOffsetsList()),
            toArray(page.getBufferSizesList()), describe(page.getEncoding())));
      }
      LanceField field = i < owners.size() ? owners.get(i) : null;
      String path = i < paths.size() ? paths.get(i) : null;
      out.add(new Column(i, field, path, describe(cm.getEncoding()), toArray(cm.getBufferSizesList()), pages));
    }
    return new FileInfo(version, schema, numRows, out);
  }

  private static void collectColumns(
      LanceFileVersion version, LanceField f, String prefix, List<LanceField> owners, List<String> paths) {
    String path = prefix.isEmpty() ? f.name() : prefix + "." + f.name();
    boolean hasColumn = version == LanceFileVersion.V2_0 || !(f.isStruct() || f.isList());
    if (hasColumn) {
      owners.add(f);
      paths.add(path);
    }
    for (LanceField c : f.children()) {
      collectColumns(version, c, path, owners, paths);
    }
  }

  private static long[] toArray(List<Long> values) {
    long[] a = new long[values.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = values.get(i);
    }
    return a;
  }

  public LanceFileVersion version() {
    return version;
  }

  public long numRows() {
    return numRows;
  }

  public LanceSchema schema() {
    return schema;
  }

  public List<Column> columns() {
    return columns;
  }

  /** One column: the field it stores, its column-level encoding and buffers, and its pages. */
  public static final class Column {
    private final int index;
    private final LanceField field;
    private final String path;
    private final String encoding;
    private final long[] bufferSizes;
    private final List<Page> pages;

    Column(int index, LanceField field, String path, String encoding, long[] bufferSizes, List<Page> pages) {
      this.index = index;
      this.field = field;
      this.path = path;
      this.encoding = encoding;
      this.bufferSizes = bufferSizes;
      this.pages = List.copyOf(pages);
    }

    public int index() {
      return index;
    }

    /** The field whose values the column holds, or null if the schema does not account for it. */
    public LanceField field() {
      return field;
    }

    /** The dotted path of the field from the top level ("address.city", "tags.item"), or null. */
    public String path() {
      return path;
    }

    /** The column encoding, usually {@code Values}. */
    public String encoding() {
      return encoding;
    }

    /** Sizes of the column-level buffers (most columns have none). */
    public long[] bufferSizes() {
      return bufferSizes.clone();
    }

    public List<Page> pages() {
      return pages;
    }

    /** Bytes in the column's pages and column buffers. */
    public long totalBytes() {
      long n = 0;
      for (long s : bufferSizes) {
        n += s;
      }
      for (Page p : pages) {
        n += p.totalBytes();
      }
      return n;
    }
  }

  /** One page of a column. */
  public static final class Page {
    private final int index;
    private final long length;
    private final long priority;
    private final long[] bufferOffsets;
    private final long[] bufferSizes;
    private final String encoding;

    Page(int index, long length, long priority, long[] bufferOffsets, long[] bufferSizes, String encoding) {
      this.index = index;
      this.length = length;
      this.priority = priority;
      this.bufferOffsets = bufferOffsets;
      this.bufferSizes = bufferSizes;
      this.encoding = encoding;
    }

    public int index() {
      return index;
    }

    /** The page's length: rows, or items for the item column of a 2.0 list. */
    public long rows() {
      return length;
    }

    /** The page's priority: its first row in 2.1, 0 in 2.0. */
    public long priority() {
      return priority;
    }

    public long[] bufferOffsets() {
      return bufferOffsets.clone();
    }

    public long[] bufferSizes() {
      return bufferSizes.clone();
    }

    public long totalBytes() {
      long n = 0;
      for (long s : bufferSizes) {
        n += s;
      }
      return n;
    }

    /** A one-line description of the page's encoding. */
    public String encoding() {
      return encoding;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Encoding descriptions

  private static Map<String, Descriptor> encodingTypes() {
    Map<String, Descriptor> m = new HashMap<>();
    for (FileDescriptor fd : List.of(Encodings20.getDescriptor(), Encodings21.getDescriptor())) {
      for (Descriptor d : fd.getMessageTypes()) {
        m.put(d.getFullName(), d);
      }
    }
    return m;
  }

  /**
   * Describes a column or page encoding in one line. The encoding is normally a
   * {@code google.protobuf.Any} holding a message of {@code lance.encodings} or
   * {@code lance.encodings21}; anything else is described by what it is ("Unknown(type url,
   * N bytes)", "Deferred(...)") rather than rejected, because {@code file info} is for looking at
   * odd files too.
   */
  public static String describe(Encoding encoding) {
    switch (encoding.getLocationCase()) {
      case DIRECT:
        return describeAny(encoding.getDirect().getEncoding());
      case INDIRECT:
        return "Deferred(at " + encoding.getIndirect().getBufferLocation() + ", "
            + encoding.getIndirect().getBufferLength() + " bytes)";
      case NONE:
        return "None";
      default:
        return "Unset";
    }
  }

  private static String describeAny(ByteString bytes) {
    Any any;
    try {
      any = Any.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      return "Invalid(" + bytes.size() + " bytes, not a protobuf Any)";
    }
    String url = any.getTypeUrl();
    Descriptor type = ENCODING_TYPES.get(url.substring(url.lastIndexOf('/') + 1));
    if (type == null) {
      return "Unknown(" + url + ", " + any.getValue().size() + " bytes)";
    }
    try {
      return describe(DynamicMessage.parseFrom(type, any.getValue()));
    } catch (InvalidProtocolBufferException e) {
      return "Invalid(" + url + ", " + any.getValue().size() + " bytes)";
    }
  }

  /**
   * Describes an encoding message: its type name (without a "Layout" suffix) followed by its set
   * fields in brackets, named when there are several. Union messages (all fields in one oneof, a
   * name ending in "Encoding" or "Layout", like ArrayEncoding, CompressiveEncoding and PageLayout)
   * only say which member is set, so the chain reads {@code Nullable(NoNull(Flat(64)))} rather
   * than {@code ArrayEncoding(Nullable(...))}.
   */
  static String describe(Message m) {
    Descriptor d = m.getDescriptorForType();
    if (isUnion(d)) {
      Map<FieldDescriptor, Object> set = m.getAllFields();
      if (set.isEmpty()) {
        return label(d.getName()) + "(unset)";
      }
      Map.Entry<FieldDescriptor, Object> e = set.entrySet().iterator().next();
      FieldDescriptor f = e.getKey();
      if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        return label(d.getName()) + "(" + value(f, e.getValue()) + ")";
      }
      Message member = (Message) e.getValue();
      // The member's field name says what was chosen even when its message is empty or shared
      // (SimpleStruct is chosen as "struct", google.protobuf.Empty as "values").
      return body(member, label(camel(f.getName())));
    }
    return body(m, label(d.getName()));
  }

  private static String body(Message m, String label) {
    if (isUnion(m.getDescriptorForType())) {
      return describe(m);
    }
    List<String> parts = new ArrayList<>();
    List<FieldDescriptor> shown = new ArrayList<>();
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      // A sub-message left at its defaults says nothing (a 2.0 Flat's buffer 0 of the page), but
      // an empty member of a oneof is the choice itself (Nullable's AllNull).
      if (!f.isRepeated() && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && f.getRealContainingOneof() == null
          && isDefault((Message) e.getValue())) {
        continue;
      }
      shown.add(f);
      parts.add(value(f, e.getValue()));
    }
    if (parts.isEmpty()) {
      return label;
    }
    if (parts.size() == 1 && !shown.get(0).isRepeated() && unnamed(shown.get(0))) {
      return label + "(" + parts.get(0) + ")";
    }
    StringBuilder b = new StringBuilder(label).append('(');
    for (int i = 0; i < parts.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(name(shown.get(i))).append('=').append(parts.get(i));
    }
    return b.append(')').toString();
  }

  private static boolean isDefault(Message m) {
    return m.getAllFields().isEmpty();
  }

  // A lone message or number needs no name (Flat(64), NoNull(Flat(64))); a lone flag or enum does.
  private static boolean unnamed(FieldDescriptor f) {
    switch (f.getJavaType()) {
      case MESSAGE:
      case INT:
      case LONG:
        return true;
      default:
        return false;
    }
  }

  private static boolean isUnion(Descriptor d) {
    String n = d.getName();
    if (!(n.endsWith("Encoding") || n.endsWith("Layout")) || d.getFields().isEmpty()) {
      return false;
    }
    OneofDescriptor o = d.getFields().get(0).getRealContainingOneof();
    if (o == null) {
      return false;
    }
    for (FieldDescriptor f : d.getFields()) {
      if (f.getRealContainingOneof() != o) {
        return false;
      }
    }
    return true;
  }

  private static String value(FieldDescriptor f, Object v) {
    if (f.isRepeated()) {
      List<?> list = (List<?>) v;
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < list.size(); i++) {
        b.append(i == 0 ? "" : ", ").append(single(f, list.get(i)));
      }
      return b.append(']').toString();
    }
    return single(f, v);
  }

  private static String single(FieldDescriptor f, Object v) {
    switch (f.getType()) {
      case MESSAGE:
      case GROUP:
        return describe((Message) v);
      case ENUM:
        return enumName((EnumValueDescriptor) v);
      case BYTES:
        return "<" + ((ByteString) v).size() + " bytes>";
      case UINT64:
      case FIXED64:
        return Long.toUnsignedString((Long) v);
      case UINT32:
      case FIXED32:
        return Integer.toUnsignedString((Integer) v);
      default:
        return String.valueOf(v);
    }
  }

  // Drops the prefix all values of the enum share (REPDEF_, COMPRESSION_ALGORITHM_).
  private static String enumName(EnumValueDescriptor v) {
    List<EnumValueDescriptor> all = v.getType().getValues();
    String prefix = all.get(0).getName();
    for (EnumValueDescriptor e : all) {
      prefix = commonPrefix(prefix, e.getName());
    }
    prefix = prefix.substring(0, prefix.lastIndexOf('_') + 1);
    return all.size() > 1 ? v.getName().substring(prefix.length()) : v.getName();
  }

  private static String commonPrefix(String a, String b) {
    int n = 0;
    while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
      n++;
    }
    return a.substring(0, n);
  }

  private static String name(FieldDescriptor f) {
    String n = f.getName();
    return n.endsWith("_compression") ? n.substring(0, n.length() - "_compression".length()) : n;
  }

  private static String label(String typeName) {
    return typeName.endsWith("Layout") && typeName.length() > "Layout".length()
        ? typeName.substring(0, typeName.length() - "Layout".length())
        : typeName;
  }

  private static String camel(String snake) {
    StringBuilder b = new StringBuilder();
    boolean up = true;
    for (char c : snake.toCharArray()) {
      if (c == '_') {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // JSON

  /**
   * The description as one JSON object: {@code version}, {@code rows}, {@code schema} (a tree of
   * fields with {@code id}, {@code name}, {@code type}, {@code nullable}, {@code children}) and
   * {@code columns} (each with {@code index}, {@code field_id}, {@code path}, {@code encoding},
   * {@code buffer_sizes}, and {@code pages}: {@code rows}, {@code priority},
   * {@code buffer_offsets}, {@code buffer_sizes}, {@code encoding}).
   */
  public String toJson() {
    ObjectNode o = Json.object();
    o.put("version", version.toString());
    o.put("rows", numRows);
    ArrayNode fields = o.putArray("schema");
    schema.fields().forEach(f -> fields.add(field(f)));
    if (!schema.metadata().isEmpty()) {
      o.set("metadata", map(schema.metadata()));
    }
    ArrayNode cols = o.putArray("columns");
    for (Column c : columns) {
      ObjectNode col = cols.addObject();
      col.put("index", c.index());
      if (c.field() == null) {
        col.putNull("field_id");
        col.putNull("path");
      } else {
        col.put("field_id", c.field().id());
        col.put("path", c.path());
      }
      col.put("encoding", c.encoding());
      col.set("buffer_sizes", unsigned(c.bufferSizes));
      ArrayNode pages = col.putArray("pages");
      for (Page page : c.pages()) {
        ObjectNode p = pages.addObject();
        p.put("rows", page.rows());
        p.put("priority", page.priority());
        p.set("buffer_offsets", unsigned(page.bufferOffsets));
        p.set("buffer_sizes", unsigned(page.bufferSizes));
        p.put("encoding", page.encoding());
      }
    }
    return Json.write(o);
  }

  private static ObjectNode field(LanceField f) {
    ObjectNode o = Json.object();
    o.put("id", f.id());
    o.put("name", f.name());
    o.put("type", f.logicalType());
    o.put("nullable", f.nullable());
    if (!f.metadata().isEmpty()) {
      o.set("metadata", map(f.metadata()));
    }
    if (!f.children().isEmpty()) {
      ArrayNode children = o.putArray("children");
      f.children().forEach(c -> children.add(field(c)));
    }
    return o;
  }

  private static ObjectNode map(Map<String, String> m) {
    ObjectNode o = Json.object();
    m.forEach(o::put);
    return o;
  }

  private static ArrayNode unsigned(long[] values) {
    ArrayNode a = Json.array();
    for (long v : values) {
      a.add(Json.unsigned(v));
    }
    return a;
  }
}
