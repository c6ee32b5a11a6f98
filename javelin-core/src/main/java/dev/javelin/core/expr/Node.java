package dev.javelin.core.expr;

import java.util.List;

/** The parsed, unbound syntax tree. Each node knows its span in the source text. */
sealed interface Node {
  int start();

  int end();

  /** A column reference; more than one part walks into struct fields. */
  record Column(List<String> path, int start, int end) implements Node {
    String dotted() {
      return String.join(".", path);
    }
  }

  /** A literal: Long, Double, String, Boolean, null, DateLit or TimestampLit. */
  record Literal(Object value, Kind kind, int start, int end) implements Node {}

  /** NOT (bool) or - (numbers). */
  record Unary(String op, Node arg, int start, int end) implements Node {}

  /** A chain of AND (all parts must hold) or of OR (one must), in source order; two or more parts. */
  record Logic(boolean and, List<Node> parts, int start, int end) implements Node {}

  /** Comparisons and arithmetic. */
  record Binary(String op, Node left, Node right, int start, int end) implements Node {}

  record IsNull(Node arg, boolean negated, int start, int end) implements Node {}

  record In(Node arg, List<Node> list, boolean negated, int start, int end) implements Node {}

  record Between(Node arg, Node low, Node high, boolean negated, int start, int end) implements Node {}

  /** [NOT] LIKE or, with {@code caseless}, [NOT] ILIKE. */
  record Like(Node arg, String pattern, boolean negated, boolean caseless, int start, int end) implements Node {}

  /** {@code arg IS [NOT] TRUE} or {@code IS [NOT] FALSE}: never NULL. */
  record IsBool(Node arg, boolean value, boolean negated, int start, int end) implements Node {}

  /** A function call {@code name(args)}; the name as written. */
  record Call(String name, List<Node> args, int start, int end) implements Node {}

  /**
   * {@code CAST(arg AS type)}, {@code TRY_CAST(...)} (NULL where the value does not convert) or
   * {@code arg::type}; {@code type} is the type name as written, upper-cased, spaces collapsed.
   */
  record Cast(Node arg, String type, boolean lenient, int start, int end) implements Node {}

  /**
   * {@code CASE [operand] WHEN w THEN t ... [ELSE e] END}; with an operand each w is compared
   * with it, otherwise each w is a condition. {@code otherwise} is null without ELSE.
   */
  record Case(Node operand, List<Node> whens, List<Node> thens, Node otherwise, int start, int end)
      implements Node {}

  /** An array literal {@code [a, b, ...]}. */
  record Array(List<Node> items, int start, int end) implements Node {}

  /** {@code arg[index]}: a list element (1-based, negative from the end) or a struct field by name. */
  record Index(Node arg, Node index, int start, int end) implements Node {}
}
