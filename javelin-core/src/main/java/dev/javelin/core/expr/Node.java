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

  record Like(Node arg, String pattern, boolean negated, int start, int end) implements Node {}
}
