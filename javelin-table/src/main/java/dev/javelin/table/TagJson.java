package dev.javelin.table;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of a tag file, {@code _refs/tags/{name}.json}, as Lance 7 writes it (serde_json's
 * pretty form, {@link Json#pretty}):
 *
 * <pre>
 * {"branch": null, "version": 3, "createdAt": "...Z", "updatedAt": "...Z", "manifestSize": 748, "metadata": {}}
 * </pre>
 *
 * Lance requires {@code version} and {@code manifestSize}; the rest may be missing (older writers
 * leave them out). Also what tag and branch files share: reading one object, whole numbers and
 * metadata, with the messages a damaged file gets.
 */
final class TagJson {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  private TagJson() {}

  /**
   * Parses a ref file ({@code kind} is "Tag" or "Branch", for messages) into one object.
   *
   * @throws CorruptManifestException if it is not one JSON object
   */
  static ObjectNode object(String text, String file, String kind) {
    JsonNode value;
    try {
      value = Json.tree(text);
    } catch (MismatchedInputException e) {
      if (e.getOriginalMessage().startsWith("Trailing token")) {
        throw TableErrors.corrupt(file, kind + " file is not one JSON object", e);
      }
      throw invalid(text, file, kind, e);
    } catch (JsonProcessingException e) {
      throw invalid(text, file, kind, e);
    }
    if (!(value instanceof ObjectNode)) {
      throw TableErrors.corrupt(file, kind + " file is not one JSON object");
    }
    return (ObjectNode) value;
  }

  private static CorruptManifestException invalid(String text, String file, String kind, JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    long offset = at == null || at.getCharOffset() < 0 ? text.length() : at.getCharOffset();
    String what = e.getOriginalMessage().contains("end-of-input") ? "unexpected end" : e.getOriginalMessage();
    return TableErrors.corrupt(file, kind + " file is not valid JSON (" + what + " at offset " + offset + ")", e);
  }

  static TagInfo parse(String name, String text, String file) {
    ObjectNode m = object(text, file, "Tag");
    long version = number(m.get("version"), "version", file, "Tag");
    long size = number(m.get("manifestSize"), "manifestSize", file, "Tag");
    JsonNode branch = m.get("branch");
    return new TagInfo(name, version, size, branch != null && branch.isTextual() ? branch.textValue() : null,
        instant(m.get("createdAt")), instant(m.get("updatedAt")), metadata(m.get("metadata")));
  }

  static String write(TagInfo tag) {
    ObjectNode o = Json.object();
    o.put("branch", tag.branch().orElse(null));
    o.set("version", Json.unsigned(tag.version()));
    tag.createdAt().ifPresent(t -> o.put("createdAt", t.toString()));
    tag.updatedAt().ifPresent(t -> o.put("updatedAt", t.toString()));
    o.put("manifestSize", tag.manifestSize());
    o.set("metadata", metadata(tag.metadata()));
    return Json.pretty(o);
  }

  /** A ref file's metadata: Lance's values are strings; anything else is kept as its JSON text. */
  static Map<String, String> metadata(JsonNode node) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node != null && node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode v = e.getValue();
        out.put(e.getKey(), v.isNull() ? null : v.isTextual() ? v.textValue() : Json.write(v));
      }
    }
    return out;
  }

  /** Metadata as the object a ref file holds. */
  static ObjectNode metadata(Map<String, String> metadata) {
    ObjectNode o = Json.object();
    metadata.forEach(o::put);
    return o;
  }

  /**
   * A parsed value that must be a whole number, read as unsigned 64 bits ({@code key} and
   * {@code kind} for messages).
   */
  static long number(JsonNode v, String key, String file, String kind) {
    if (v == null || !v.isNumber()) {
      throw TableErrors.corrupt(file, kind + " file has no number '" + key + "'");
    }
    if (!v.isIntegralNumber() || v.bigIntegerValue().signum() < 0 || v.bigIntegerValue().compareTo(TWO_TO_64) >= 0) {
      throw TableErrors.corrupt(file, kind + " file's '" + key + "' is not a whole number");
    }
    return v.bigIntegerValue().longValue();
  }

  private static Instant instant(JsonNode v) {
    if (v == null || !v.isTextual()) {
      return null;
    }
    try {
      return Instant.parse(v.textValue());
    } catch (DateTimeParseException e) {
      return null; // informational only; a format we do not know is not worth failing over
    }
  }
}
