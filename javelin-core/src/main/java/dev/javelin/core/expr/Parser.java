package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionSyntaxException;
import dev.javelin.core.exceptions.ExpressionTooDeepException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parser for the SQL-like expression language. Precedence, loosest first: OR, AND, NOT,
 * predicates (comparisons, IN, BETWEEN, LIKE, IS NULL), + -, * / %, unary minus. Chains of AND
 * and of OR become one n-ary node, an IN list one node; expressions nested deeper than
 * {@link Expression#MAX_DEPTH} levels are refused with an {@link ExpressionTooDeepException}.
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
    Node n = p.expr(OR, 0);
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
        if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=") || two.equals("==")
            || two.equals("::") || two.equals("||")) {
          tokens.add(new Token(T.SYMBOL, two.equals("==") ? "=" : two.equals("<>") ? "!=" : two, i, i + 2));
          i += 2;
        } else if ("=<>+-*/%(),.[]".indexOf(c) >= 0) {
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
  //
  // Precedence climbing: expr(min, level) parses an operand and then every operator binding at
  // least as tightly as min. Prefixes and chains of one operator are loops, not recursion; the
  // recursion goes one call deeper only for parentheses, an operator's right operand and a list
  // item, each of which opens a level, so it is bounded by Expression.MAX_DEPTH.

  private static final int OR = 1;
  private static final int AND = 2;
  private static final int NOT = 3;
  private static final int PREDICATE = 4;
  private static final int ADDITIVE = 5;
  private static final int MULTIPLICATIVE = 6;
  private static final int SIGN = 7;

  private static final Set<String> COMPARISONS = Set.of("=", "!=", "<", "<=", ">", ">=");

  /** The height (levels, see Expression.MAX_DEPTH) of the tree the last expr() or predicate() call returned. */
  private int depth;

  // The level below `level`, or a too-deep error at the token that would open it.
  private int deeper(int level, Token at) {
    if (level + 1 > Expression.MAX_DEPTH) {
      throw new ExpressionTooDeepException(src, at.start);
    }
    return level + 1;
  }

  // A node `height` levels tall whose top sits `level` levels deep must fit under the limit.
  private int fit(int level, int height, Token at) {
    if (level + height > Expression.MAX_DEPTH) {
      throw new ExpressionTooDeepException(src, at.start);
    }
    return height;
  }

  private Node expr(int min, int level) {
    // Prefixes are gathered in a loop, not by recursion: NOTs (where a condition may stand), then
    // signs; each opens a level.
    List<Token> nots = new ArrayList<>();
    while (min <= NOT && peek().type == T.IDENT && peek().text.equalsIgnoreCase("NOT")) {
      nots.add(peek());
      level = deeper(level, next());
    }
    int notLevel = level; // where the innermost NOT's operand sits
    List<Token> signs = new ArrayList<>();
    while (peek().type == T.SYMBOL && (peek().text.equals("-") || peek().text.equals("+"))) {
      signs.add(peek());
      level = deeper(level, next());
    }
    Node left;
    int height;
    Token t0 = peek();
    if (symbol("(")) {
      left = expr(OR, deeper(level, t0));
      Token close = expectSymbol(")");
      height = depth + 1;
      left = postfix(left, level, height, t0.start, close.end);
    } else {
      left = primary(level);
      left = postfix(left, level, depth, left.start(), left.end());
    }
    height = depth;
    for (int k = signs.size() - 1; k >= 0; k--) {
      left = sign(signs.get(k), left);
      height++;
    }
    level -= signs.size();
    fit(level, height, t0);
    // The operators after the operand, in a loop. With NOTs in front, first those a NOT holds
    // (the predicate after it and what binds tighter), then, around the NOTs, only AND and OR.
    boolean inNot = !nots.isEmpty();
    int floor = inNot ? Math.max(min, NOT) : min;
    int ceiling = Integer.MAX_VALUE;
    boolean predicate = false; // comparisons and IS/IN/BETWEEN/LIKE do not chain
    while (true) {
      Token t = peek();
      int prec = infixPrecedence(t);
      // Predicates do not chain, except IS [NOT] NULL/TRUE/FALSE after one: (a = b) IS TRUE.
      boolean chained = prec == PREDICATE && predicate && !(t.type == T.IDENT && t.text.equalsIgnoreCase("IS"));
      if (prec < floor || prec >= ceiling || chained) {
        if (!inNot) {
          break;
        }
        for (int k = nots.size() - 1; k >= 0; k--) {
          left = new Node.Unary("NOT", left, nots.get(k).start, left.end());
          height++;
        }
        level -= nots.size();
        fit(level, height, nots.get(0));
        inNot = false;
        floor = min;
        ceiling = NOT;
        continue;
      }
      if (prec == OR || prec == AND) {
        String op = prec == OR ? "OR" : "AND";
        List<Node> parts = new ArrayList<>();
        parts.add(left);
        int tallest = height;
        while (peek().type == T.IDENT && peek().text.equalsIgnoreCase(op)) {
          Token and = next();
          parts.add(expr(prec + 1, deeper(level, and)));
          tallest = Math.max(tallest, depth);
        }
        left = new Node.Logic(prec == AND, List.copyOf(parts), left.start(), parts.get(parts.size() - 1).end());
        height = fit(level, tallest + 1, t);
        continue;
      }
      if (prec == PREDICATE && t.type != T.SYMBOL) {
        left = predicate(left, level);
      } else {
        // A comparison, or + - * / % (left-associative: a chain grows one level per operator).
        next();
        Node right = expr(prec == PREDICATE ? ADDITIVE : prec + 1, deeper(level, t));
        left = new Node.Binary(t.text, left, right, left.start(), right.end());
      }
      predicate |= prec == PREDICATE;
      height = fit(level, Math.max(height, depth) + 1, t);
    }
    depth = height;
    return left;
  }

  // -x, folded into a numeric literal; +x is x.
  private static Node sign(Token sign, Node arg) {
    if (sign.text.equals("+")) {
      return arg;
    }
    if (arg instanceof Node.Literal lit && lit.kind() == Kind.LONG) {
      return new Node.Literal(-(Long) lit.value(), Kind.LONG, sign.start, arg.end());
    }
    if (arg instanceof Node.Literal lit && lit.kind() == Kind.DOUBLE) {
      return new Node.Literal(-(Double) lit.value(), Kind.DOUBLE, sign.start, arg.end());
    }
    return new Node.Unary("-", arg, sign.start, arg.end());
  }

  private int infixPrecedence(Token t) {
    if (t.type == T.SYMBOL) {
      if (COMPARISONS.contains(t.text)) {
        return PREDICATE;
      }
      if (t.text.equals("+") || t.text.equals("-") || t.text.equals("||")) {
        return ADDITIVE;
      }
      if (t.text.equals("*") || t.text.equals("/") || t.text.equals("%")) {
        return MULTIPLICATIVE;
      }
      return -1;
    }
    if (t.type != T.IDENT) {
      return -1;
    }
    switch (t.text.toUpperCase(Locale.ROOT)) {
      case "OR":
        return OR;
      case "AND":
        return AND;
      case "IS": case "IN": case "BETWEEN": case "LIKE": case "ILIKE": case "NOT":
        return PREDICATE;
      default:
        return -1;
    }
  }

  // After `left`: IS [NOT] NULL, [NOT] IN (...), [NOT] BETWEEN a AND b or [NOT] LIKE. Sets depth
  // to the tallest operand's.
  private Node predicate(Node left, int level) {
    Token t = next();
    depth = 0;
    if (t.text.equalsIgnoreCase("IS")) {
      boolean negated = keyword("NOT");
      Token what = peek();
      if (keyword("NULL")) {
        return new Node.IsNull(left, negated, left.start(), what.end);
      }
      if (keyword("TRUE") || keyword("FALSE")) {
        return new Node.IsBool(left, what.text.equalsIgnoreCase("TRUE"), negated, left.start(), what.end);
      }
      throw error(what, "expected NULL, TRUE or FALSE but found " + describe(what));
    }
    boolean negated = t.text.equalsIgnoreCase("NOT");
    Token kind = negated ? next() : t;
    if (kind.type == T.IDENT && kind.text.equalsIgnoreCase("IN")) {
      expectSymbol("(");
      List<Node> list = new ArrayList<>();
      int tallest = 0;
      int inner = deeper(level, kind);
      do {
        list.add(expr(ADDITIVE, inner));
        tallest = Math.max(tallest, depth);
      } while (symbol(","));
      Token close = expectSymbol(")");
      depth = tallest;
      return new Node.In(left, List.copyOf(list), negated, left.start(), close.end);
    }
    if (kind.type == T.IDENT && kind.text.equalsIgnoreCase("BETWEEN")) {
      int inner = deeper(level, kind);
      Node low = expr(ADDITIVE, inner);
      int tallest = depth;
      Token and = peek();
      if (!keyword("AND")) {
        throw error(and, "expected AND in BETWEEN but found " + describe(and));
      }
      Node high = expr(ADDITIVE, inner);
      depth = Math.max(tallest, depth);
      return new Node.Between(left, low, high, negated, left.start(), high.end());
    }
    if (kind.type == T.IDENT && (kind.text.equalsIgnoreCase("LIKE") || kind.text.equalsIgnoreCase("ILIKE"))) {
      String op = kind.text.toUpperCase(Locale.ROOT);
      Token pat = next();
      if (pat.type != T.STRING) {
        throw error(pat, op + " needs a string pattern but found " + describe(pat));
      }
      int end = pat.end;
      if (keyword("ESCAPE")) {
        // As in Lance: the escape character is the backslash; naming it is allowed.
        Token esc = next();
        if (esc.type != T.STRING || !esc.text.equals("\\")) {
          throw error(esc, op + " supports no escape character but the backslash (\\): found " + describe(esc));
        }
        end = esc.end;
      }
      return new Node.Like(left, pat.text, negated, op.equals("ILIKE"), left.start(), end);
    }
    throw error(kind, "expected IN, BETWEEN, LIKE or ILIKE after NOT but found " + describe(kind));
  }

  // A value: a literal, column, function call, CAST, CASE or array literal. Sets depth to its
  // height (0 for a leaf; one more than the tallest expression it holds).
  private Node primary(int level) {
    depth = 0;
    Token t = next();
    switch (t.type) {
      case NUMBER:
        return number(t);
      case STRING:
        return new Node.Literal(t.text, Kind.STRING, t.start, t.end);
      case SYMBOL:
        if (t.text.equals("[")) {
          List<Node> items = new ArrayList<>();
          Token close = list(items, "]", level, t);
          return new Node.Array(List.copyOf(items), t.start, close.end);
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
          case "AND": case "OR": case "NOT": case "IN": case "IS": case "BETWEEN": case "LIKE": case "ILIKE":
          case "WHEN": case "THEN": case "ELSE": case "END":
            throw error(t, "expected a value but found " + describe(t));
          case "CASE":
            return caseWhen(t, level);
          case "CAST":
          case "TRY_CAST":
            if (peek().type == T.SYMBOL && peek().text.equals("(")) {
              return cast(t, k.equals("TRY_CAST"), level);
            }
            return column(t);
          case "EXTRACT":
            if (peek().type == T.SYMBOL && peek().text.equals("(")) {
              return extract(t, level);
            }
            return column(t);
          default:
            if (peek().type == T.SYMBOL && peek().text.equals("(")) {
              if (!Functions.NAMES.contains(t.text.toLowerCase(Locale.ROOT))) {
                throw error(t, "unknown function '" + t.text + "'");
              }
              next();
              List<Node> args = new ArrayList<>();
              Token close;
              if (peek().type == T.SYMBOL && peek().text.equals(")")) {
                close = next();
              } else {
                close = list(args, ")", level, t);
              }
              return new Node.Call(t.text, List.copyOf(args), t.start, close.end);
            }
            return column(t);
        }
    }
  }

  // Comma-separated expressions up to `close` (the opening bracket is already read; `[]` may be
  // empty). Each opens one level below `level`; sets depth to the tallest item's height plus one.
  private Token list(List<Node> items, String close, int level, Token opener) {
    int inner = deeper(level, opener);
    int tallest = 0;
    if (!close.equals(")") && peek().type == T.SYMBOL && peek().text.equals(close)) {
      depth = 1;
      return next();
    }
    do {
      items.add(expr(OR, inner));
      tallest = Math.max(tallest, depth);
    } while (symbol(","));
    Token end = expectSymbol(close);
    depth = tallest + 1;
    return end;
  }

  // After a value: element access `[i]`, struct field `['name']` and casts `::type`, any number,
  // left to right. `height` is the value's; leaves depth at the result's.
  private Node postfix(Node left, int level, int height, int start, int end) {
    while (peek().type == T.SYMBOL && (peek().text.equals("[") || peek().text.equals("::"))) {
      Token t = next();
      if (t.text.equals("[")) {
        Node index = expr(OR, deeper(level, t));
        int inner = depth;
        Token close = expectSymbol("]");
        left = new Node.Index(left, index, start, close.end);
        height = fit(level, Math.max(height, inner) + 1, t);
      } else {
        Token[] span = new Token[1];
        String type = typeName(span);
        left = new Node.Cast(left, type, false, start, span[0].end);
        height = fit(level, height + 1, t);
      }
    }
    depth = height;
    return left;
  }

  /** The types CAST accepts (as Lance's SQL does), canonical spelling to what the user may write. */
  static final List<String> TYPES = List.of("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT",
      "TINYINT UNSIGNED", "SMALLINT UNSIGNED", "INT UNSIGNED", "BIGINT UNSIGNED", "FLOAT", "DOUBLE", "STRING",
      "DATE", "TIMESTAMP", "DATETIME");

  // A type name after AS or ::, canonical and upper-case: TIMESTAMP(p) / DATETIME(p) keep their
  // precision (0, 3, 6 or 9). span[0] is set to the last token.
  private String typeName(Token[] span) {
    Token t = next();
    if (t.type != T.IDENT) {
      throw error(t, "expected a type name but found " + describe(t));
    }
    String name = t.text.toUpperCase(Locale.ROOT);
    name = switch (name) {
      case "BOOL" -> "BOOLEAN";
      case "INTEGER" -> "INT";
      case "REAL" -> "FLOAT";
      case "VARCHAR", "TEXT" -> "STRING";
      default -> name;
    };
    span[0] = t;
    if (peek().type == T.IDENT && peek().text.equalsIgnoreCase("UNSIGNED") && name.endsWith("INT")) {
      span[0] = next();
      name = name + " UNSIGNED";
    }
    if (!TYPES.contains(name)) {
      throw error(t, "unknown type '" + t.text + "' (known: " + String.join(", ", TYPES) + ")");
    }
    if ((name.equals("TIMESTAMP") || name.equals("DATETIME")) && symbol("(")) {
      Token p = next();
      if (p.type != T.NUMBER || !List.of("0", "3", "6", "9").contains(p.text)) {
        throw error(p, "a timestamp's precision is 0, 3, 6 or 9, not " + describe(p));
      }
      span[0] = expectSymbol(")");
      return "TIMESTAMP(" + p.text + ")";
    }
    return name.equals("DATETIME") ? "TIMESTAMP" : name;
  }

  // CAST(x AS type) or TRY_CAST(x AS type); the keyword is read.
  private Node cast(Token keyword, boolean lenient, int level) {
    expectSymbol("(");
    Node arg = expr(OR, deeper(level, keyword));
    int height = depth + 1;
    Token as = peek();
    if (!keyword("AS")) {
      throw error(as, "expected AS in " + keyword.text.toUpperCase(Locale.ROOT) + " but found " + describe(as));
    }
    String type = typeName(new Token[1]);
    Token close = expectSymbol(")");
    depth = height;
    return new Node.Cast(arg, type, lenient, keyword.start, close.end);
  }

  // EXTRACT(field FROM x), the same as date_part('field', x); the keyword is read.
  private Node extract(Token keyword, int level) {
    expectSymbol("(");
    Token field = next();
    if (field.type != T.IDENT && field.type != T.STRING) {
      throw error(field, "expected a date part (year, month, day, hour...) but found " + describe(field));
    }
    Token from = peek();
    if (!keyword("FROM")) {
      throw error(from, "expected FROM in EXTRACT but found " + describe(from));
    }
    Node arg = expr(OR, deeper(level, keyword));
    int height = depth + 1;
    Token close = expectSymbol(")");
    depth = height;
    Node part = new Node.Literal(field.text.toLowerCase(Locale.ROOT), Kind.STRING, field.start, field.end);
    return new Node.Call("date_part", List.of(part, arg), keyword.start, close.end);
  }

  // CASE [operand] WHEN w THEN t ... [ELSE e] END; the keyword is read.
  private Node caseWhen(Token keyword, int level) {
    int inner = deeper(level, keyword);
    int tallest = 0;
    Node operand = null;
    if (!(peek().type == T.IDENT && peek().text.equalsIgnoreCase("WHEN"))) {
      operand = expr(OR, inner);
      tallest = depth;
    }
    List<Node> whens = new ArrayList<>();
    List<Node> thens = new ArrayList<>();
    while (keyword("WHEN")) {
      whens.add(expr(OR, inner));
      tallest = Math.max(tallest, depth);
      Token then = peek();
      if (!keyword("THEN")) {
        throw error(then, "expected THEN but found " + describe(then));
      }
      thens.add(expr(OR, inner));
      tallest = Math.max(tallest, depth);
    }
    if (whens.isEmpty()) {
      throw error(peek(), "expected WHEN but found " + describe(peek()));
    }
    Node otherwise = null;
    if (keyword("ELSE")) {
      otherwise = expr(OR, inner);
      tallest = Math.max(tallest, depth);
    }
    Token end = peek();
    if (!keyword("END")) {
      throw error(end, "expected WHEN, ELSE or END but found " + describe(end));
    }
    depth = tallest + 1;
    return new Node.Case(operand, List.copyOf(whens), List.copyOf(thens), otherwise, keyword.start, end.end);
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
