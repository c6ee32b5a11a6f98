package dev.javelin.core.expr;

/** abs, round, floor and ceil over number columns. */
final class MathFunctions {
  private MathFunctions() {}

  static Values abs(Values x, int n, Call call) {
    Values out = new Values(x.kind == Kind.NULL ? Kind.LONG : x.kind, n);
    out.nulls = x.nulls;
    if (x.kind == Kind.DOUBLE) {
      double[] r = new double[n];
      for (int i = 0; i < n; i++) {
        r[i] = Math.abs(x.doubles[i]);
      }
      out.doubles = r;
      return out;
    }
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      long v = x.longs[i];
      if (v == Long.MIN_VALUE && !x.isNull(i)) {
        throw call.error("overflows in abs(" + v + ")");
      }
      r[i] = Math.abs(v);
    }
    out.longs = r;
    return out;
  }

  /** Half away from zero, the sign kept (round(-0.4) is -0.0), as Rust's f64::round. */
  static double roundHalfAway(double v) {
    double a = Math.abs(v);
    double f = Math.floor(a);
    return Math.copySign(a - f >= 0.5 ? f + 1 : f, v);
  }

  /** round(x [, digits]): to digits decimals (negative: tens, hundreds...). */
  static Values round(Values[] a, int n) {
    Values x = a[0];
    Values out = new Values(Kind.DOUBLE, n);
    out.nulls = Call.strictNulls(a);
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      double v = x.doubles[i];
      if (a.length == 1) {
        r[i] = roundHalfAway(v);
      } else {
        double factor = Math.pow(10, a[1].longs[i]);
        r[i] = roundHalfAway(v * factor) / factor;
      }
    }
    out.doubles = r;
    return out;
  }

  static Values floorOrCeil(Values x, int n, boolean ceil) {
    Values out = new Values(Kind.DOUBLE, n);
    out.nulls = x.nulls;
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = ceil ? Math.ceil(x.doubles[i]) : Math.floor(x.doubles[i]);
    }
    out.doubles = r;
    return out;
  }
}
