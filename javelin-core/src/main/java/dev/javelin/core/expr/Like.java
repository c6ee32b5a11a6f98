package dev.javelin.core.expr;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A compiled SQL LIKE pattern, matched on UTF-8 bytes: {@code %} matches any run of characters,
 * {@code _} exactly one character, and a backslash makes the next character literal.
 */
final class Like {
  private static final int ONE = -1;
  private static final int ANY = -2;
  private final int[] pattern;
  /** Set when the pattern is a literal prefix followed by one trailing %: the common case. */
  private final byte[] prefix;

  Like(String text) {
    ByteArrayOutputStream lit = new ByteArrayOutputStream();
    int[] buf = new int[text.getBytes(StandardCharsets.UTF_8).length];
    int m = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        i++;
        int cp = text.codePointAt(i);
        i += Character.charCount(cp) - 1;
        for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
          buf[m++] = b & 0xFF;
        }
      } else if (c == '%') {
        buf[m++] = ANY;
      } else if (c == '_') {
        buf[m++] = ONE;
      } else {
        int cp = text.codePointAt(i);
        i += Character.charCount(cp) - 1;
        for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
          buf[m++] = b & 0xFF;
        }
      }
    }
    pattern = Arrays.copyOf(buf, m);
    boolean isPrefix = m > 0 && pattern[m - 1] == ANY;
    for (int k = 0; k < m - 1 && isPrefix; k++) {
      if (pattern[k] < 0) {
        isPrefix = false;
      } else {
        lit.write(pattern[k]);
      }
    }
    prefix = isPrefix ? lit.toByteArray() : null;
  }

  /** Whether row i of {@code s} matches. */
  boolean matches(Values.Strings s, int i) {
    int start = s.start(i);
    int len = s.length(i);
    byte[] bytes = s.bytes();
    if (prefix != null) {
      // Prefixes are short: a plain loop beats Arrays.equals' range checks per row.
      byte[] p = prefix;
      if (len < p.length) {
        return false;
      }
      for (int k = 0; k < p.length; k++) {
        if (bytes[start + k] != p[k]) {
          return false;
        }
      }
      return true;
    }
    return matches(bytes, start, start + len);
  }

  boolean matches(byte[] text, int len) {
    return matches(text, 0, len);
  }

  private boolean matches(byte[] text, int from, int end) {
    int p = 0;
    int t = from;
    int starP = -1;
    int starT = -1;
    int m = pattern.length;
    while (t < end) {
      if (p < m && pattern[p] == ONE) {
        t += charLength(text[t]);
        p++;
      } else if (p < m && pattern[p] >= 0 && pattern[p] == (text[t] & 0xFF)) {
        t++;
        p++;
      } else if (p < m && pattern[p] == ANY) {
        starP = p++;
        starT = t;
      } else if (starP >= 0) {
        // Let the last % swallow one more character and retry from there.
        p = starP + 1;
        starT += charLength(text[starT]);
        t = starT;
      } else {
        return false;
      }
    }
    while (p < m && pattern[p] == ANY) {
      p++;
    }
    return p == m && t == end;
  }

  private static int charLength(byte lead) {
    int b = lead & 0xFF;
    if (b < 0x80) {
      return 1;
    }
    if (b >= 0xF0) {
      return 4;
    }
    if (b >= 0xE0) {
      return 3;
    }
    return b >= 0xC0 ? 2 : 1;
  }
}
