package dev.javelin.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void writesCompactlyInTheOrderPropertiesArePut() {
    ObjectNode o = Json.object();
    o.put("z", 1).put("a", "x").putNull("n");
    o.putArray("l").add(true).add(2.5);
    o.putObject("o");
    assertThat(Json.write(o)).isEqualTo("{\"z\":1,\"a\":\"x\",\"n\":null,\"l\":[true,2.5],\"o\":{}}");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("b", List.of(1L, 2L));
    m.put("a", null);
    assertThat(Json.write(m)).isEqualTo("{\"b\":[1,2],\"a\":null}");
  }

  @Test
  void escapesAsSerdeJsonDoes() {
    assertThat(Json.write("q\" b\\ \n\t\r\b\f \u0001\u001f é \u2028 /"))
        .isEqualTo("\"q\\\" b\\\\ \\n\\t\\r\\b\\f \\u0001\\u001f é \u2028 /\"");
  }

  @Test
  void writesTheLayoutOfLanceFiles() {
    ObjectNode o = Json.object();
    o.putNull("branch");
    o.put("version", 3);
    o.putObject("empty");
    o.putArray("none");
    o.putArray("pairs").addArray().add(2).add("ab");
    o.putObject("metadata").put("k", "v").put("k2", "w");
    assertThat(Json.pretty(o)).isEqualTo("{\n"
        + "  \"branch\": null,\n"
        + "  \"version\": 3,\n"
        + "  \"empty\": {},\n"
        + "  \"none\": [],\n"
        + "  \"pairs\": [\n"
        + "    [\n"
        + "      2,\n"
        + "      \"ab\"\n"
        + "    ]\n"
        + "  ],\n"
        + "  \"metadata\": {\n"
        + "    \"k\": \"v\",\n"
        + "    \"k2\": \"w\"\n"
        + "  }\n"
        + "}");
    assertThat(Json.pretty(Json.object())).isEqualTo("{}");
  }

  @Test
  void unsignedValuesPastLongMaxStayPositive() {
    assertThat(Json.write(Json.unsigned(7))).isEqualTo("7");
    assertThat(Json.write(Json.unsigned(-1))).isEqualTo("18446744073709551615");
    assertThat(Json.write(Json.unsigned(Long.MIN_VALUE))).isEqualTo("9223372036854775808");
  }

  @Test
  void readsTreesIgnoringWhatItDoesNotKnow() throws Exception {
    JsonNode n = Json.tree(" {\"a\": [1, \"x\", null], \"b\": {\"c\": false}} \n");
    assertThat(n.get("a").get(0).asLong()).isEqualTo(1);
    assertThat(n.get("a").get(1).textValue()).isEqualTo("x");
    assertThat(n.get("a").get(2).isNull()).isTrue();
    assertThat(n.get("b").get("c").booleanValue()).isFalse();
    Point p = Json.reader().readValue("{\"x\": 1, \"y\": 2, \"added_later\": [1]}", Point.class);
    assertThat(p).isEqualTo(new Point(1, 2));
    assertThat(Json.write(p)).isEqualTo("{\"x\":1,\"y\":2}");
  }

  record Point(int x, int y) {}

  @Test
  void refusesBrokenAndTrailingText() {
    assertThatThrownBy(() -> Json.tree("{\"version\": 1,")).isInstanceOf(JsonParseException.class)
        .hasMessageStartingWith("Unexpected end-of-input")
        .satisfies(e -> assertThat(((JsonProcessingException) e).getLocation().getCharOffset()).isEqualTo(14));
    assertThatThrownBy(() -> Json.tree("{} {}")).isInstanceOf(MismatchedInputException.class)
        .hasMessageStartingWith("Trailing token");
    assertThatThrownBy(() -> Json.tree("")).isInstanceOf(MismatchedInputException.class)
        .hasMessageStartingWith("No content to map due to end-of-input");
    assertThatThrownBy(() -> Json.tree("{'a': 1}")).isInstanceOf(JsonProcessingException.class)
        .hasMessageNotContaining("{'a': 1}");
  }

  @Test
  void generatesIntoStringsAndLeavesWritersOpen() throws Exception {
    assertThat(Json.generate(g -> {
      g.writeStartObject();
      g.writeNumberField("n", 1);
      g.writeFieldName("raw");
      g.writeNumber("1.0E10");
      g.writeEndObject();
    })).isEqualTo("{\"n\":1,\"raw\":1.0E10}");
    StringWriter out = new StringWriter();
    try (var g = Json.generator(out)) {
      g.writeString("a");
    }
    out.write("!");
    assertThat(out.toString()).isEqualTo("\"a\"!");
    assertThatThrownBy(() -> Json.write(new Object())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot write a java.lang.Object as JSON");
  }
}
