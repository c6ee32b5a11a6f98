package dev.javelin.core.expr;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recursive-descent parser for the SQL-like expression language. Precedence, loosest first: OR,
 * AND, NOT, predicates (comparisons, IN, BETWEEN, LIKE, IS NULL), + -, * / %, unary minus.
 */
final class Parser {
  private enum T { IDENT, QIDENT, NUMBER, STRING, SYMBOL, EOF }

  private record Token(T type, String text, int start, int end) {}

  private final String src;
  private final List<Token> tokens = new ArrayList<>();
  private int at;

  private Parser(String src) {
    this.src = src;
    lex();
  }

  static Node parse(String src) {
    Parser p = new Parser(src);
    if (p.peek().type == T.EOF) {
      throw p.error(p.peek(), "the expression is empty");
    }
    Node n = p.or();
    if (p.peek().type != T.EOF) {
      throw p.error(p.peek(), "unexpected " + p.describe(p.peek()));
    }
    return n;
  }

  // ---- lexer

  private void lex() {
    int i = 0;
    int n = src.length();
    while (i < n) {
      char c = src.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (Character.isLetter(c) || c == '_') {
        int s = i;
        while (i < n && (Character.isLetterOrDigit(src.charAt(i)) || src.charAt(i) == '_')) {
          i++;
        }
        tokens.add(new Token(T.IDENT, src.substring(s, i), s, i));
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(src.charAt(i + 1)))) {
        int s = i;
        while (i < n && Character.isDigit(src.charAt(i))) {
          i++;
        }
        if (i < n && src.charAt(i) == '.') {
          i++;
          while (i < n && Character.isDigit(src.charAt(i))) {
            i++;
          }
        }
        if (i < n && (src.charAt(i) == 'e' || src.charAt(i) == 'E')) {
          int e = i + 1;
          if (e < n && (src.charAt(e) == '+' || src.charAt(e) == '-')) {
            e++;
          }
          if (e < n && Character.isDigit(src.charAt(e))) {
            i = e;
            while (i < n && Character.isDigit(src.charAt(i))) {
              i++;
            }
          }
        }
        if (i < n && (Character.isLetter(src.charAt(i)) || src.charAt(i) == '_')) {
          throw error(i, "unexpected character '" + src.charAt(i) + "' after a number");
        }
        tokens.add(new Token(T.NUMBER, src.substring(s, i), s, i));
      } else if (c == '\'' || c == '"' || c == '`') {
        int s = i;
        StringBuilder sb = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw error(s, c == '`' ? "unterminated quoted identifier" : "unterminated string");
          }
          char d = src.charAt(i);
          if (d == c) {
            if (i + 1 < n && src.charAt(i + 1) == c) { // doubled quote escapes itself
              sb.append(c);
              i += 2;
              continue;
            }
            i++;
            break;
          }
          sb.append(d);
          i++;
        }
        // As in Lance's SQL dialect, only backticks quote names; double quotes make a string.
        tokens.add(new Token(c == '`' ? T.QIDENT : T.STRING, sb.toString(), s, i));
      } else {
        String two = i + 1 < n ? src.substring(i, i + 2) : "";
        if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=") || two.equals("==")) {
          tokens.add(new Token(T.SYMBOL, two.equals("==") ? "=" : two.equals("<>") ? "!=" : two, i, i + 2));
          i += 2;
        } else if ("=<>+-*/%(),.".indexOf(c) >= 0) {
          tokens.add(new Token(T.SYMBOL, String.valueOf(c), i, i + 1));
          i++;
        } else {
          throw error(i, "unexpected character '" + c + "'");
        }
      }
    }
    tokens.add(new Token(T.EOF, "", n, n));
  }

  // ---- grammar

  private Node or() {
    Node left = and();
    while (keyword("OR")) {
      Node right = and();
      left = new Node.Binary("OR", left, right, left.start(), right.end());
    }
    return left;
  }

  private Node and() {
    Node left = not();
    while (keyword("AND")) {
      Node right = not();
      left = new Node.Binary("AND", left, right, left.start(), right.end());
    }
    return left;
  }

  private Node not() {
    Token t = peek();
    if (keyword("NOT")) {
      Node arg = not();
      return new Node.Unary("NOT", arg, t.start, arg.end());
    }
    return predicate();
  }

  private Node predicate() {
    Node left = additive();
    Token t = peek();
    if (t.type == T.SYMBOL && List.of("=", "!=", "<", "<=", ">", ">=").contains(t.text)) {
      at++;
      Node right = additive();
      return new Node.Binary(t.text, left, right, left.start(), right.end());
    }
    if (keyword("IS")) {
      boolean negated = keyword("NOT");
      Token nul = peek();
      if (!keyword("NULL")) {
        throw error(nul, "expected NULL but found " + describe(nul));
      }
      return new Node.IsNull(left, negated, left.start(), nul.end);
    }
    int save = at;
    boolean negated = keyword("NOT");
    if (keyword("IN")) {
      expectSymbol("(");
      List<Node> list = new ArrayList<>();
      do {
        list.add(additive());
      } while (symbol(","));
      Token close = expectSymbol(")");
      return new Node.In(left, list, negated, left.start(), close.end);
    }
    if (keyword("BETWEEN")) {
      Node low = additive();
      Token and = peek();
      if (!keyword("AND")) {
        throw error(and, "expected AND in BETWEEN but found " + describe(and));
      }
      Node high = additive();
      return new Node.Between(left, low, high, negated, left.start(), high.end());
    }
    if (keyword("LIKE")) {
      Token pat = next();
      if (pat.type != T.STRING) {
        throw error(pat, "LIKE needs a string pattern but found " + describe(pat));
      }
      return new Node.Like(left, pat.text, negated, left.start(), pat.end);
    }
    if (negated) {
      throw error(tokens.get(save + 1), "expected IN, BETWEEN or LIKE after NOT but found "
          + describe(tokens.get(save + 1)));
    }
    return left;
  }

  private Node additive() {
    Node left = multiplicative();
    while (peek().type == T.SYMBOL && (peek().text.equals("+") || peek().text.equals("-"))) {
      String op = next().text;
      Node right = multiplicative();
      left = new Node.Binary(op, left, right, left.start(), right.end());
    }
    return left;
  }

  private Node multiplicative() {
    Node left = unary();
    while (peek().type == T.SYMBOL && "*/%".contains(peek().text)) {
      String op = next().text;
      Node right = unary();
      left = new Node.Binary(op, left, right, left.start(), right.end());
    }
    return left;
  }

  private Node unary() {
    Token t = peek();
    if (symbol("-")) {
      Node arg = unary();
      if (arg instanceof Node.Literal lit && lit.kind() == Kind.LONG) {
        return new Node.Literal(-(Long) lit.value(), Kind.LONG, t.start, arg.end());
      }
      if (arg instanceof Node.Literal lit && lit.kind() == Kind.DOUBLE) {
        return new Node.Literal(-(Double) lit.value(), Kind.DOUBLE, t.start, arg.end());
      }
      return new Node.Unary("-", arg, t.start, arg.end());
    }
    if (symbol("+")) {
      return unary();
    }
    return primary();
  }

  private Node primary() {
    Token t = next();
    switch (t.type) {
      case NUMBER:
        return number(t);
      case STRING:
        return new Node.Literal(t.text, Kind.STRING, t.start, t.end);
      case SYMBOL:
        if (t.text.equals("(")) {
          Node inner = or();
          expectSymbol(")");
          return inner;
        }
        throw error(t, "expected a value but found " + describe(t));
      case EOF:
        throw error(t, "expected a value but found the end");
      case QIDENT:
        return column(t);
      case IDENT:
      default:
        String k = t.text.toUpperCase(Locale.ROOT);
        switch (k) {
          case "TRUE":
          case "FALSE":
            return new Node.Literal(k.equals("TRUE"), Kind.BOOL, t.start, t.end);
          case "NULL":
            return new Node.Literal(null, Kind.NULL, t.start, t.end);
          case "DATE":
          case "TIMESTAMP":
            if (peek().type == T.STRING) {
              return temporal(k, next(), t.start);
            }
            return column(t);
          case "AND": case "OR": case "NOT": case "IN": case "IS": case "BETWEEN": case "LIKE":
            throw error(t, "expected a value but found " + describe(t));
          default:
            return column(t);
        }
    }
  }

  private Node column(Token first) {
    List<String> path = new ArrayList<>();
    path.add(first.text);
    int end = first.end;
    while (symbol(".")) {
      Token part = next();
      if (part.type != T.IDENT && part.type != T.QIDENT) {
        throw error(part, "expected a field name after '.' but found " + describe(part));
      }
      path.add(part.text);
      end = part.end;
    }
    return new Node.Column(List.copyOf(path), first.start, end);
  }

  private Node number(Token t) {
    String s = t.text;
    if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
      try {
        return new Node.Literal(Long.parseLong(s), Kind.LONG, t.start, t.end);
      } catch (NumberFormatException e) {
        // too big for a long: treat as a float, as SQL engines do for huge literals
      }
    }
    return new Node.Literal(Double.parseDouble(s), Kind.DOUBLE, t.start, t.end);
  }

  private Node temporal(String kind, Token text, int start) {
    String s = text.text.trim();
    try {
      if (kind.equals("DATE")) {
        return new Node.Literal(LocalDate.parse(s).toEpochDay(), Kind.DATE, start, text.end);
      }
      return new Node.Literal(parseTimestampNanos(s), Kind.TIMESTAMP, start, text.end);
    } catch (DateTimeParseException | ArithmeticException e) {
      throw error(text, "'" + text.text + "' is not a valid " + kind.toLowerCase(Locale.ROOT)
          + (kind.equals("DATE") ? " (YYYY-MM-DD)" : " (YYYY-MM-DD[ HH:MM:SS[.fffffffff]])"));
    }
  }

  /** Nanoseconds since the epoch of a timestamp without zone, read as UTC. */
  static long parseTimestampNanos(String s) {
    String t = s.trim();
    if (t.endsWith("Z")) {
      t = t.substring(0, t.length() - 1);
    }
    LocalDateTime dt = t.length() == 10 ? LocalDate.parse(t).atStartOfDay() : LocalDateTime.parse(t.replace(' ', 'T'));
    long seconds = dt.toEpochSecond(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), dt.getNano());
  }

  // ---- token helpers

  private Token peek() {
    return tokens.get(at);
  }

  private Token next() {
    Token t = tokens.get(at);
    if (t.type != T.EOF) {
      at++;
    }
    return t;
  }

  private boolean keyword(String k) {
    Token t = peek();
    if (t.type == T.IDENT && t.text.equalsIgnoreCase(k)) {
      at++;
      return true;
    }
    return false;
  }

  private boolean symbol(String s) {
    Token t = peek();
    if (t.type == T.SYMBOL && t.text.equals(s)) {
      at++;
      return true;
    }
    return false;
  }

  private Token expectSymbol(String s) {
    Token t = peek();
    if (!symbol(s)) {
      throw error(t, "expected '" + s + "' but found " + describe(t));
    }
    return t;
  }

  private String describe(Token t) {
    switch (t.type) {
      case EOF:
        return "the end";
      case STRING:
        return "string '" + t.text + "'";
      default:
        return "'" + src.substring(t.start, t.end) + "'";
    }
  }

  private ExpressionSyntaxException error(Token t, String what) {
    return error(t.start, what);
  }

  private ExpressionSyntaxException error(int offset, String what) {
    return new ExpressionSyntaxException(src, offset, what);
  }
}
