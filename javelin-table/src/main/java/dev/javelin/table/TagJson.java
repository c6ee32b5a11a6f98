package dev.javelin.table;

import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of a tag file, {@code _refs/tags/{name}.json}, as Lance 7 writes it:
 *
 * <pre>
 * {"branch": null, "version": 3, "createdAt": "...Z", "updatedAt": "...Z", "manifestSize": 748, "metadata": {}}
 * </pre>
 *
 * Lance requires {@code version} and {@code manifestSize}; the rest may be missing (older writers
 * leave them out). A small parser of its own, because the table layer has no JSON dependency and
 * the documents are tiny.
 */
final class TagJson {
  private final String text;
  private final String file;
  private final String kind;
  private int pos;

  private TagJson(String text, String file, String kind) {
    this.text = text;
    this.file = file;
    this.kind = kind;
  }

  /**
   * Parses a ref file ({@code kind} is "Tag" or "Branch", for messages) into one object: a Map
   * for each object, "$text" for a string, "#digits" for a number, a List for an array, Boolean, null.
   */
  static Map<?, ?> object(String text, String file, String kind) {
    TagJson p = new TagJson(text, file, kind);
    p.skipSpace();
    Object value = p.value();
    p.skipSpace();
    if (p.pos != text.length() || !(value instanceof Map)) {
      throw TableErrors.corrupt(file, kind + " file is not one JSON object");
    }
    return (Map<?, ?>) value;
  }

  static TagInfo parse(String name, String text, String file) {
    TagJson p = new TagJson(text, file, "Tag");
    Map<?, ?> m = object(text, file, "Tag");
    long version = p.requiredNumber(m, "version");
    long size = p.requiredNumber(m, "manifestSize");
    Object branch = m.get("branch");
    Map<String, String> metadata = new LinkedHashMap<>();
    if (m.get("metadata") instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) m.get("metadata")).entrySet()) {
        metadata.put((String) e.getKey(), scalar(e.getValue()));
      }
    }
    return new TagInfo(name, version, size, branch instanceof String ? ((String) branch).substring(1) : null,
        p.instant(m, "createdAt"), p.instant(m, "updatedAt"), metadata);
  }

  static String write(TagInfo tag) {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"branch\": ").append(tag.branch().map(TagJson::quote).orElse("null")).append(",\n");
    b.append("  \"version\": ").append(Long.toUnsignedString(tag.version())).append(",\n");
    tag.createdAt().ifPresent(t -> b.append("  \"createdAt\": ").append(quote(t.toString())).append(",\n"));
    tag.updatedAt().ifPresent(t -> b.append("  \"updatedAt\": ").append(quote(t.toString())).append(",\n"));
    b.append("  \"manifestSize\": ").append(tag.manifestSize()).append(",\n");
    b.append("  \"metadata\": {");
    String sep = "";
    for (Map.Entry<String, String> e : tag.metadata().entrySet()) {
      b.append(sep).append("\n    ").append(quote(e.getKey())).append(": ").append(e.getValue() == null ? "null" : quote(e.getValue()));
      sep = ",";
    }
    b.append(tag.metadata().isEmpty() ? "}" : "\n  }").append("\n}");
    return b.toString();
  }

  // A metadata value as text (Lance's are strings; anything else is kept as its JSON text).
  static String scalar(Object v) {
    if (v instanceof String) {
      return ((String) v).substring(1);
    }
    return v == null ? null : v.toString();
  }

  private long requiredNumber(Map<?, ?> m, String key) {
    return number(m.get(key), key, file, kind);
  }

  /** A parsed value that must be a whole number ({@code key} and {@code kind} for messages). */
  static long number(Object v, String key, String file, String kind) {
    if (!(v instanceof String) || !((String) v).startsWith("#")) {
      throw TableErrors.corrupt(file, kind + " file has no number '" + key + "'");
    }
    try {
      return Long.parseUnsignedLong(((String) v).substring(1));
    } catch (NumberFormatException e) {
      throw TableErrors.corrupt(file, kind + " file's '" + key + "' is not a whole number", e);
    }
  }

  private Instant instant(Map<?, ?> m, String key) {
    Object v = m.get(key);
    if (!(v instanceof String) || ((String) v).startsWith("#")) {
      return null;
    }
    try {
      return Instant.parse(((String) v).substring(1));
    } catch (DateTimeParseException e) {
      return null; // informational only; a format we do not know is not worth failing over
    }
  }

  // Values: Map for objects, "$text" for strings, "#digits" for numbers, Boolean, null.
  private Object value() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{': {
        pos++;
        Map<String, Object> out = new LinkedHashMap<>();
        skipSpace();
        if (peek('}')) {
          return out;
        }
        while (true) {
          skipSpace();
          Object key = value();
          if (!(key instanceof String) || !((String) key).startsWith("$")) {
            throw error("object key is not a string");
          }
          skipSpace();
          expect(':');
          skipSpace();
          Object v = value();
          out.put(((String) key).substring(1), v);
          skipSpace();
          if (peek('}')) {
            return out;
          }
          expect(',');
        }
      }
      case '[': {
        pos++;
        java.util.List<Object> out = new java.util.ArrayList<>();
        skipSpace();
        if (peek(']')) {
          return out;
        }
        while (true) {
          skipSpace();
          out.add(value());
          skipSpace();
          if (peek(']')) {
            return out;
          }
          expect(',');
        }
      }
      case '"':
        return "$" + string();
      case 't':
        literal("true");
        return Boolean.TRUE;
      case 'f':
        literal("false");
        return Boolean.FALSE;
      case 'n':
        literal("null");
        return null;
      default: {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
          pos++;
        }
        if (start == pos) {
          throw error("unexpected '" + c + "'");
        }
        return "#" + text.substring(start, pos);
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case 'n': b.append('\n'); break;
        case 't': b.append('\t'); break;
        case 'r': b.append('\r'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'u':
          if (pos + 4 > text.length()) {
            throw error("bad \\u escape");
          }
          try {
            b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
          break;
        default: b.append(e); break;
      }
    }
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  private void literal(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected token");
    }
    pos += word.length();
  }

  private boolean peek(char c) {
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private CorruptManifestException error(String what) {
    return TableErrors.corrupt(file, kind + " file is not valid JSON (" + what + " at offset " + pos + ")");
  }
}
