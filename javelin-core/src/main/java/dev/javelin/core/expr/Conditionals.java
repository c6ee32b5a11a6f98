package dev.javelin.core.expr;

import java.util.ArrayList;
import java.util.List;

/** CASE, COALESCE, NULLIF and IS [NOT] TRUE/FALSE, and the row-wise choice they share. */
final class Conditionals {
  private Conditionals() {}

  /**
   * A column of {@code kind} whose row i is row i of {@code from[which[i]]}, or NULL where
   * {@code which[i]} is -1. Every source is of {@code kind} (a scalar kind).
   */
  static Values pick(Kind kind, int n, Values[] from, int[] which) {
    Values out = new Values(kind, n);
    boolean[] nulls = new boolean[n];
    boolean anyNull = false;
    for (int i = 0; i < n; i++) {
      int w = which[i];
      if (w < 0 || from[w].isNull(i)) {
        nulls[i] = true;
        anyNull = true;
      }
    }
    out.nulls = anyNull ? nulls : null;
    switch (kind) {
      case LONG, DATE, TIMESTAMP -> {
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
          if (!nulls[i]) {
            r[i] = from[which[i]].longs[i];
          }
        }
        out.longs = r;
      }
      case DOUBLE -> {
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
          if (!nulls[i]) {
            r[i] = from[which[i]].doubles[i];
          }
        }
        out.doubles = r;
      }
      case BOOL -> {
        boolean[] r = new boolean[n];
        for (int i = 0; i < n; i++) {
          if (!nulls[i]) {
            r[i] = from[which[i]].bools[i];
          }
        }
        out.bools = r;
      }
      case STRING -> {
        Values.StringsBuilder b = new Values.StringsBuilder(n);
        for (int i = 0; i < n; i++) {
          if (nulls[i]) {
            b.add(EMPTY, 0, 0);
          } else {
            Values.Strings s = from[which[i]].strings;
            b.add(s.bytes(), s.start(i), s.length(i));
          }
        }
        out.strings = b.build();
      }
      case NULL -> out.nulls = Values.allNull(n);
      default -> throw new IllegalStateException("cannot choose values of kind " + kind);
    }
    return out;
  }

  private static final byte[] EMPTY = new byte[0];

  /**
   * {@code CASE WHEN c1 THEN v1 ... ELSE e END}: args are c1, v1, c2, v2, ... and the ELSE value
   * last (a NULL literal when absent); the first condition TRUE on a row chooses its value.
   */
  static Call caseWhen(Kind kind, List<Eval> conditionsAndValues, Eval otherwise, String source) {
    List<Eval> args = new ArrayList<>(conditionsAndValues);
    args.add(otherwise);
    return new Call(kind, "CASE", args, (a, n, call) -> {
      int pairs = (a.length - 1) / 2;
      Values[] values = new Values[pairs + 1];
      int[] which = new int[n];
      for (int i = 0; i < n; i++) {
        which[i] = pairs; // ELSE
      }
      boolean[] decided = new boolean[n];
      for (int p = 0; p < pairs; p++) {
        Values c = a[2 * p];
        values[p] = a[2 * p + 1];
        for (int i = 0; i < n; i++) {
          if (!decided[i] && !c.isNull(i) && c.bools[i]) {
            decided[i] = true;
            which[i] = p;
          }
        }
      }
      values[pairs] = a[a.length - 1];
      return pick(kind, n, values, which);
    }, source);
  }

  /** COALESCE: each row's first non-null argument. */
  static Call coalesce(Kind kind, List<Eval> args, String source) {
    return new Call(kind, "COALESCE", args, (a, n, call) -> {
      int[] which = new int[n];
      for (int i = 0; i < n; i++) {
        which[i] = -1;
        for (int k = 0; k < a.length; k++) {
          if (!a[k].isNull(i)) {
            which[i] = k;
            break;
          }
        }
      }
      return pick(kind, n, a, which);
    }, source);
  }

  /** NULLIF(x, y): NULL where {@code equal} (x = y) is TRUE, x elsewhere. */
  static Call nullIf(Eval x, Eval equal, String source) {
    return new Call(x.kind, "NULLIF", List.of(x, equal), (a, n, call) -> {
      int[] which = new int[n];
      for (int i = 0; i < n; i++) {
        which[i] = !a[1].isNull(i) && a[1].bools[i] ? -1 : 0;
      }
      return pick(x.kind, n, a, which);
    }, source);
  }

  /** {@code x IS [NOT] TRUE/FALSE}: never NULL. */
  static Call isBool(Eval x, boolean value, boolean negated, String source) {
    return new Call(Kind.BOOL, "IS " + (negated ? "NOT " : "") + value, List.of(x), (a, n, call) -> {
      Values out = new Values(Kind.BOOL, n);
      boolean[] r = new boolean[n];
      for (int i = 0; i < n; i++) {
        r[i] = (!a[0].isNull(i) && a[0].bools[i] == value) != negated;
      }
      out.bools = r;
      return out;
    }, source);
  }
}
