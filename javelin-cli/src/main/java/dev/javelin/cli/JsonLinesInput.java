package dev.javelin.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.javelin.common.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads JSON Lines (one object per line, blank lines skipped) as Arrow batches. The schema is
 * given, or inferred from the first {@link #SAMPLE_LINES} lines: integers int64, other numbers
 * float64, booleans bool, strings utf8 (or date32/timestamp when every one is an ISO date or
 * date-time), objects structs, arrays lists; a field that mixes kinds is utf8 holding the JSON
 * text of each value. Inferred fields are nullable. Reads back what {@code scan --format jsonl}
 * writes.
 */
final class JsonLinesInput extends ArrowReader {
  static final int SAMPLE_LINES = 10_000;
  private static final ObjectReader TREE = Json.reader().forType(JsonNode.class)
      .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private final Path path;
  private final Charset charset;
  private final BufferedReader lines;
  private final Schema schema;
  private final boolean inferred;
  private final int rowsPerBatch;
  private long line;
  private long bytes;

  private JsonLinesInput(Path path, Charset charset, BufferedReader lines, Schema schema, boolean inferred,
      BufferAllocator allocator) {
    super(allocator);
    this.inferred = inferred;
    this.path = path;
    this.charset = charset;
    this.lines = lines;
    this.schema = schema;
    this.rowsPerBatch = CsvReader.rowsPerBatch(schema, CsvReader.BATCH_ROWS);
  }

  /**
   * Opens a JSON Lines file.
   *
   * @param schema the columns to read, or null to infer them from the first lines
   */
  static JsonLinesInput open(Path path, Schema schema, Charset charset, BufferAllocator allocator)
      throws IOException {
    boolean inferred = schema == null;
    if (inferred) {
      schema = infer(path, charset);
    }
    BufferedReader r = new BufferedReader(TextFiles.open(path, charset));
    return new JsonLinesInput(path, charset, r, schema, inferred, allocator);
  }

  /** The node of the next non-blank line, or null at the end; {@code at[0]} is its line number. */
  private static JsonNode next(Path path, Charset charset, BufferedReader r, long[] at) throws IOException {
    while (true) {
      String text;
      try {
        text = r.readLine();
      } catch (CharacterCodingException e) {
        throw TextFiles.notDecodable(path, charset, e);
      }
      if (text == null) {
        return null;
      }
      at[0]++;
      if (text.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = TREE.readValue(text);
      } catch (JsonProcessingException e) {
        throw new InvalidInputException("Line " + at[0] + " of " + path + " is not JSON: "
            + e.getOriginalMessage().split("\n")[0]);
      }
      if (!node.isObject()) {
        throw new InvalidInputException("Line " + at[0] + " of " + path + " is not a JSON object (JSON Lines "
            + "has one object per line)");
      }
      return node;
    }
  }

  /** What the sample says about one field: its kind, and its children's for objects and arrays. */
  private static final class Shape {
    TextValues.Kind scalar = TextValues.Kind.NONE;
    boolean object;
    boolean array;
    boolean mixed;
    final Map<String, Shape> fields = new LinkedHashMap<>();
    Shape items;

    void add(JsonNode n) {
      if (n.isNull() || mixed) {
        return;
      }
      boolean wasScalar = scalar != TextValues.Kind.NONE;
      if (n.isObject()) {
        object = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          fields.computeIfAbsent(e.getKey(), k -> new Shape()).add(e.getValue());
        }
      } else if (n.isArray()) {
        array = true;
        if (items == null) {
          items = new Shape();
        }
        for (JsonNode item : n) {
          items.add(item);
        }
      } else {
        TextValues.Kind k = n.isBoolean() ? TextValues.Kind.BOOL
            : n.isIntegralNumber() ? (n.canConvertToLong() ? TextValues.Kind.INT : TextValues.Kind.STRING)
            : n.isNumber() ? TextValues.Kind.FLOAT
            : n.isTextual() ? text(n.textValue())
            : TextValues.Kind.STRING;
        scalar = wasScalar ? TextValues.merge(scalar, k) : k;
      }
      mixed = (object ? 1 : 0) + (array ? 1 : 0) + (scalar != TextValues.Kind.NONE ? 1 : 0) > 1;
    }

    // A string: a date or timestamp if it looks like one; what scan writes for NaN and infinities too.
    private static TextValues.Kind text(String s) {
      if (s.equals("NaN") || s.equals("Infinity") || s.equals("-Infinity")) {
        return TextValues.Kind.FLOAT;
      }
      return TextValues.temporal(s);
    }

    Field field(String name) {
      if (mixed) {
        return Field.nullable(name, ArrowType.Utf8.INSTANCE);
      }
      if (object) {
        List<Field> children = new ArrayList<>();
        for (Map.Entry<String, Shape> e : fields.entrySet()) {
          children.add(e.getValue().field(e.getKey()));
        }
        return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), children);
      }
      if (array) {
        return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(items.field("item")));
      }
      return Field.nullable(name, TextValues.type(scalar));
    }
  }

  private static Schema infer(Path path, Charset charset) throws IOException {
    Shape top = new Shape();
    long[] at = {0};
    try (BufferedReader r = new BufferedReader(TextFiles.open(path, charset))) {
      int n = 0;
      for (JsonNode node = next(path, charset, r, at); node != null && n < SAMPLE_LINES;
          node = next(path, charset, r, at)) {
        top.add(node);
        n++;
      }
      if (n == 0) {
        throw new InvalidInputException(path + " has no JSON objects to infer columns from");
      }
    }
    return new Schema(top.field("").getChildren());
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    int n = 0;
    long batchBytes = 0;
    long[] at = {line};
    List<Field> fields = schema.getFields();
    while (n < rowsPerBatch && batchBytes < CsvReader.BATCH_BYTES) {
      JsonNode node = next(path, charset, lines, at);
      line = at[0];
      if (node == null) {
        break;
      }
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (schema.getFields().stream().noneMatch(f -> f.getName().equals(name))) {
          throw new InvalidInputException("Line " + line + " of " + path + " has field '" + name
              + "', which is not a column (columns: " + names(fields) + (inferred
              ? String.format(Locale.ROOT, ", inferred from the first %,d lines; --schema gives them)", SAMPLE_LINES)
              : ")"));
        }
      }
      for (int f = 0; f < fields.size(); f++) {
        Field field = fields.get(f);
        try {
          batchBytes += VectorValues.set(root.getVector(f), n, value(node.get(field.getName()), field, field.getName()));
        } catch (VectorValues.BadValue e) {
          throw new InvalidInputException("Line " + line + " of " + path + ": field '" + e.path + "' "
              + e.getMessage(), e);
        }
      }
      n++;
    }
    bytes += batchBytes;
    root.setRowCount(n);
    return n > 0;
  }

  private static String names(List<Field> fields) {
    List<String> names = new ArrayList<>();
    for (Field f : fields) {
      names.add(f.getName());
    }
    return String.join(", ", names);
  }

  // A JSON value as the plain Java value VectorValues puts into a field of this type.
  private static Object value(JsonNode n, Field f, String path) {
    if (n == null || n.isNull()) {
      return null;
    }
    ArrowType t = f.getType();
    try {
      switch (t.getTypeID()) {
        case Utf8:
        case LargeUtf8:
          return n.isTextual() ? n.textValue() : n.toString();
        case Bool:
          if (n.isBoolean()) {
            return n.booleanValue();
          }
          break;
        case Int:
          if (n.isIntegralNumber()) {
            return n.bigIntegerValue();
          }
          break;
        case FloatingPoint:
          if (n.isNumber()) {
            return ((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.DOUBLE ? n.doubleValue()
                : (Object) n.floatValue();
          }
          if (n.isTextual()) {
            return TextValues.parseDouble(n.textValue());
          }
          break;
        case Decimal:
          if (n.isNumber()) {
            return n.decimalValue();
          }
          if (n.isTextual()) {
            return new BigDecimal(n.textValue().trim());
          }
          break;
        case Date:
          if (n.isTextual()) {
            long day = LocalDate.parse(n.textValue().trim()).toEpochDay();
            return ((ArrowType.Date) t).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY ? day
                : day * 86_400_000L;
          }
          break;
        case Timestamp:
          if (n.isTextual()) {
            return TextValues.epoch(TextValues.parseInstant(n.textValue()), ((ArrowType.Timestamp) t).getUnit());
          }
          if (n.isIntegralNumber()) {
            return n.longValue();
          }
          break;
        case Time:
          if (n.isTextual()) {
            return TextValues.timeOfDay(n.textValue(), ((ArrowType.Time) t).getUnit());
          }
          break;
        case Binary:
        case LargeBinary:
        case FixedSizeBinary:
          if (n.isTextual()) {
            return Base64.getDecoder().decode(n.textValue().trim());
          }
          break;
        case Struct:
          if (n.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Field c : f.getChildren()) {
              out.put(c.getName(), value(n.get(c.getName()), c, path + "." + c.getName()));
            }
            return out;
          }
          break;
        case List:
        case LargeList:
        case FixedSizeList:
          if (n.isArray()) {
            List<Object> out = new ArrayList<>(n.size());
            Field item = f.getChildren().get(0);
            for (JsonNode x : n) {
              out.add(value(x, item, path + "[]"));
            }
            return out;
          }
          break;
        case Map:
          if (n.isObject()) {
            Field entries = f.getChildren().get(0);
            Field valueField = entries.getChildren().get(1);
            List<Object> out = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
              Map.Entry<String, JsonNode> e = it.next();
              out.add(new AbstractMap.SimpleEntry<>(e.getKey(), value(e.getValue(), valueField, path + ".value")));
            }
            return out;
          }
          break;
        default:
          break;
      }
    } catch (RuntimeException e) {
      if (e instanceof VectorValues.BadValue) {
        throw e;
      }
      throw new VectorValues.BadValue(path, "holds " + n + ", which is not " + SchemaSpec.name(t));
    }
    throw new VectorValues.BadValue(path, "holds " + n + ", which is not " + SchemaSpec.name(t));
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() throws IOException {
    lines.close();
  }
}
