package dev.javelin.core.compaction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON compaction needs for its task and result forms and its config values: objects,
 * arrays, strings, integers, booleans and null. Writes what it reads.
 */
final class MiniJson {
  private final String s;
  private int i;

  private MiniJson(String s) {
    this.s = s;
  }

  /** Parses one value: Map, List, String, Long, Boolean or null. */
  static Object parse(String json) {
    MiniJson p = new MiniJson(json);
    Object v = p.value();
    p.ws();
    if (p.i != json.length()) {
      throw p.error("trailing characters");
    }
    return v;
  }

  private Object value() {
    ws();
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(i);
    if (c == '{') {
      i++;
      Map<String, Object> m = new LinkedHashMap<>();
      ws();
      if (peek('}')) {
        return m;
      }
      do {
        ws();
        String k = string();
        ws();
        expect(':');
        m.put(k, value());
        ws();
      } while (peek(','));
      expect('}');
      return m;
    }
    if (c == '[') {
      i++;
      List<Object> l = new ArrayList<>();
      ws();
      if (peek(']')) {
        return l;
      }
      do {
        l.add(value());
        ws();
      } while (peek(','));
      expect(']');
      return l;
    }
    if (c == '"') {
      return string();
    }
    if (s.startsWith("true", i)) {
      i += 4;
      return Boolean.TRUE;
    }
    if (s.startsWith("false", i)) {
      i += 5;
      return Boolean.FALSE;
    }
    if (s.startsWith("null", i)) {
      i += 4;
      return null;
    }
    int start = i;
    if (c == '-') {
      i++;
    }
    while (i < s.length() && Character.isDigit(s.charAt(i))) {
      i++;
    }
    if (start == i || (c == '-' && start + 1 == i)) {
      throw error("unexpected '" + c + "'");
    }
    return Long.parseLong(s.substring(start, i));
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (i < s.length() && s.charAt(i) != '"') {
      char c = s.charAt(i++);
      if (c == '\\') {
        char e = s.charAt(i++);
        switch (e) {
          case 'n': b.append('\n'); break;
          case 't': b.append('\t'); break;
          case 'r': b.append('\r'); break;
          case 'b': b.append('\b'); break;
          case 'f': b.append('\f'); break;
          case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
          default: b.append(e);
        }
      } else {
        b.append(c);
      }
    }
    expect('"');
    return b.toString();
  }

  private void ws() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private boolean peek(char c) {
    if (i < s.length() && s.charAt(i) == c) {
      i++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("Bad JSON at " + i + ": " + what);
  }

  /** Writes a value of the kinds {@link #parse} returns (any Number as an integer). */
  static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(v, b);
    return b.toString();
  }

  private static void write(Object v, StringBuilder b) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof String str) {
      b.append('"');
      for (char c : str.toCharArray()) {
        if (c == '"' || c == '\\') {
          b.append('\\').append(c);
        } else if (c < 0x20) {
          b.append(String.format("\\u%04x", (int) c));
        } else {
          b.append(c);
        }
      }
      b.append('"');
    } else if (v instanceof Number n) {
      b.append(n.longValue());
    } else if (v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        write(String.valueOf(e.getKey()), b);
        b.append(':');
        write(e.getValue(), b);
      }
      b.append('}');
    } else if (v instanceof List<?> l) {
      b.append('[');
      for (int k = 0; k < l.size(); k++) {
        if (k > 0) {
          b.append(',');
        }
        write(l.get(k), b);
      }
      b.append(']');
    } else {
      throw new IllegalArgumentException("Cannot write " + v.getClass() + " as JSON");
    }
  }
}
