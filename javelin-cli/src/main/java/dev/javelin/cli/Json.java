package dev.javelin.cli;

/** The one JSON job the CLI has that a StringBuilder cannot do alone: quoting strings. */
final class Json {
  private Json() {}

  /** Appends {@code s} as a JSON string literal. */
  static StringBuilder string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        case '\b':
          b.append("\\b");
          break;
        case '\f':
          b.append("\\f");
          break;
        default:
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"');
  }
}
