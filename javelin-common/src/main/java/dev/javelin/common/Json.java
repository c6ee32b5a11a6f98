package dev.javelin.common;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;

/**
 * The one configured Jackson mapper every Javelin module reads and writes JSON with, so that all
 * JSON is escaped, parsed and laid out the same way. Reading tolerates properties it does not know
 * (files written by newer versions) and refuses text after the value; writing is compact, in the
 * order the properties are put, with lower-case hex digits in escaped control characters (as
 * serde_json, and so Lance, writes them). {@link #pretty} is the layout of Lance's own JSON files.
 *
 * <p>The mapper itself is not handed out, since it could be reconfigured; its immutable
 * {@link #reader()} and {@link #writer()} are.
 */
public final class Json {
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
      .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
      .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
      .build();
  private static final ObjectReader READER = MAPPER.reader();
  private static final ObjectReader TREE = READER.forType(JsonNode.class);
  private static final ObjectWriter WRITER = MAPPER.writer();
  private static final ObjectWriter PRETTY = MAPPER.writer(lanceLayout());

  private Json() {}

  /** Writes JSON to a generator; what {@link #generate} runs. */
  @FunctionalInterface
  public interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** The mapper's reader (immutable), for binding JSON to a type or reading a tree. */
  public static ObjectReader reader() {
    return READER;
  }

  /** The mapper's compact writer (immutable). */
  public static ObjectWriter writer() {
    return WRITER;
  }

  /** A new empty object node. */
  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** A new empty array node. */
  public static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }

  /** A 64-bit value read as unsigned (Lance's u64 versions), as a number node. */
  public static JsonNode unsigned(long value) {
    return value >= 0 ? JsonNodeFactory.instance.numberNode(value)
        : JsonNodeFactory.instance.numberNode(new BigInteger(Long.toUnsignedString(value)));
  }

  /**
   * Parses one JSON value (nothing but whitespace may follow it).
   *
   * @throws JsonProcessingException if the text is empty, not JSON, or has more after the value
   */
  public static JsonNode tree(String json) throws JsonProcessingException {
    return TREE.readValue(json);
  }

  /** A value (a tree, a map, a list, a bean) as compact JSON. */
  public static String write(Object value) {
    try {
      return WRITER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot write a " + value.getClass().getName() + " as JSON", e);
    }
  }

  /**
   * A value as Lance writes its JSON files (serde_json's pretty form): two-space indents,
   * {@code "key": value}, one array element a line, {@code {}} and {@code []} when empty, no
   * newline at the end.
   */
  public static String pretty(Object value) {
    try {
      return PRETTY.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot write a " + value.getClass().getName() + " as JSON", e);
    }
  }

  /** What {@code body} writes to a compact generator, as a string. */
  public static String generate(Body body) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = generator(out)) {
      body.write(g);
    } catch (IOException e) {
      // A StringWriter does not fail; this is a misuse of the generator (an unclosed object).
      throw new UncheckedIOException("Could not write JSON", e);
    }
    return out.toString();
  }

  /**
   * A compact generator writing to {@code out}, which it neither flushes nor closes (closing the
   * generator writes what it buffered).
   */
  public static JsonGenerator generator(Writer out) throws IOException {
    return MAPPER.createGenerator(out);
  }

  private static DefaultPrettyPrinter lanceLayout() {
    DefaultIndenter indent = new DefaultIndenter("  ", "\n");
    DefaultPrettyPrinter p = new DefaultPrettyPrinter(Separators.createDefaultInstance()
        .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
        .withObjectEmptySeparator("")
        .withArrayEmptySeparator(""));
    p.indentObjectsWith(indent);
    p.indentArraysWith(indent);
    return p;
  }
}
