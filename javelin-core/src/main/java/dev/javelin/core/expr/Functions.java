package dev.javelin.core.expr;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The functions filters may call, as Lance's SQL (DataFusion) defines them: their names, argument
 * checks and the columns they compute. Strings are UTF-8; lengths and positions count characters.
 */
final class Functions {
  private Functions() {}

  /** Every function name (lower case) the language knows. */
  static final Set<String> NAMES = Set.of(
      "lower", "upper", "length", "char_length", "character_length", "octet_length", "substr", "substring",
      "trim", "btrim", "ltrim", "rtrim", "starts_with", "ends_with", "strpos", "contains", "concat",
      "regexp_like", "regexp_match", "abs", "round", "floor", "ceil", "mod", "date_trunc", "date_part", "now",
      "array_has", "array_contains", "array_has_any", "array_has_all", "array_length", "cardinality",
      "coalesce", "nullif");

  static Eval bind(Binder b, Node.Call call) {
    String name = call.name().toLowerCase(Locale.ROOT);
    List<Node> nodes = call.args();
    List<Eval> args = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      args.add(b.bind(n));
    }
    Spec s = new Spec(b, call, name, args);
    String src = b.source();
    switch (name) {
      case "lower", "upper" -> {
        s.arity(1, 1).string(0);
        boolean up = name.equals("upper");
        return s.call(Kind.STRING, (a, n, c) -> StringFunctions.changeCase(a[0], n, up));
      }
      case "length", "char_length", "character_length", "octet_length" -> {
        s.arity(1, 1).string(0);
        boolean bytes = name.equals("octet_length");
        return s.call(Kind.LONG, (a, n, c) -> StringFunctions.length(a[0], n, bytes));
      }
      case "substr", "substring" -> {
        s.arity(2, 3).string(0).integer(1);
        if (args.size() == 3) {
          s.integer(2);
        }
        return s.call(Kind.STRING, (a, n, c) -> StringFunctions.substr(a, n, c));
      }
      case "trim", "btrim", "ltrim", "rtrim" -> {
        s.arity(1, 2).string(0);
        if (args.size() == 2) {
          s.string(1);
        }
        boolean left = !name.equals("rtrim");
        boolean right = !name.equals("ltrim");
        return s.call(Kind.STRING, (a, n, c) -> StringFunctions.trim(a, n, left, right));
      }
      case "starts_with", "ends_with", "contains" -> {
        s.arity(2, 2).string(0).string(1);
        int mode = name.equals("starts_with") ? 0 : name.equals("ends_with") ? 1 : 2;
        return s.call(Kind.BOOL, (a, n, c) -> StringFunctions.find(a[0], a[1], n, mode));
      }
      case "strpos" -> {
        s.arity(2, 2).string(0).string(1);
        return s.call(Kind.LONG, (a, n, c) -> StringFunctions.strpos(a[0], a[1], n));
      }
      case "concat" -> {
        s.arity(1, Integer.MAX_VALUE);
        for (int k = 0; k < args.size(); k++) {
          s.scalar(k);
        }
        return s.call(Kind.STRING, (a, n, c) -> StringFunctions.concat(a, n, true));
      }
      case "regexp_like", "regexp_match" -> {
        s.arity(2, 3).string(0);
        Pattern p = s.pattern();
        if (name.equals("regexp_like")) {
          return new Call(Kind.BOOL, name, args.subList(0, 1), (a, n, c) -> StringFunctions.regexpLike(a[0], n, p), src);
        }
        return new Call(Kind.LIST, Kind.STRING, name, args.subList(0, 1),
            (a, n, c) -> StringFunctions.regexpMatch(a[0], n, p), src);
      }
      case "abs" -> {
        s.arity(1, 1).number(0);
        return s.call(args.get(0).kind == Kind.NULL ? Kind.LONG : args.get(0).kind, (a, n, c) -> MathFunctions.abs(a[0], n, c));
      }
      case "round" -> {
        s.arity(1, 2).number(0);
        if (args.size() == 2) {
          s.integer(1);
        }
        args.set(0, Binder.widen(args.get(0), Kind.DOUBLE));
        return s.call(Kind.DOUBLE, (a, n, c) -> MathFunctions.round(a, n));
      }
      case "floor", "ceil" -> {
        s.arity(1, 1).number(0);
        Eval x = args.get(0);
        if (x.kind == Kind.LONG) {
          return x;
        }
        args.set(0, Binder.widen(x, Kind.DOUBLE));
        boolean up = name.equals("ceil");
        return s.call(Kind.DOUBLE, (a, n, c) -> MathFunctions.floorOrCeil(a[0], n, up));
      }
      case "mod" -> {
        s.arity(2, 2);
        return b.arithmetic(new Node.Binary("%", nodes.get(0), nodes.get(1), call.start(), call.end()),
            args.get(0), args.get(1));
      }
      case "date_trunc" -> {
        s.arity(2, 2).temporal(1);
        String unit = s.constantString(0).toLowerCase(Locale.ROOT);
        if (!TemporalFunctions.TRUNC_UNITS.contains(unit)) {
          throw b.typeError("cannot truncate to '" + unit + "' (known: " + String.join(", ", TemporalFunctions.TRUNC_UNITS)
              + ")");
        }
        args.set(1, Binder.widen(args.get(1), Kind.TIMESTAMP));
        return new Call(Kind.TIMESTAMP, name, args.subList(1, 2), (a, n, c) -> TemporalFunctions.trunc(a[0], n, unit), src);
      }
      case "date_part" -> {
        s.arity(2, 2).temporal(1);
        String part = s.constantString(0).toLowerCase(Locale.ROOT);
        if (!TemporalFunctions.PARTS.contains(part)) {
          throw b.typeError("has no date part '" + part + "' (known: " + String.join(", ", TemporalFunctions.PARTS) + ")");
        }
        args.set(1, Binder.widen(args.get(1), Kind.TIMESTAMP));
        return new Call(part.equals("epoch") ? Kind.DOUBLE : Kind.LONG, name, args.subList(1, 2),
            (a, n, c) -> TemporalFunctions.part(a[0], n, part), src);
      }
      case "now" -> {
        s.arity(0, 0);
        // One instant for the whole statement, as SQL's now() is; microseconds, as Lance's clock gives.
        Instant t = Instant.now();
        return new Eval.Literal(Kind.TIMESTAMP, t.getEpochSecond() * 1_000_000_000L + t.getNano() / 1000 * 1000L);
      }
      case "array_has", "array_contains" -> {
        s.arity(2, 2).list(0).element(1, 0);
        return s.call(Kind.BOOL, (a, n, c) -> ListFunctions.has(a[0], a[1], n));
      }
      case "array_has_any", "array_has_all" -> {
        s.arity(2, 2).list(0).list(1).sameElements(0, 1);
        boolean all = name.equals("array_has_all");
        return s.call(Kind.BOOL, (a, n, c) -> ListFunctions.hasAnyOrAll(a[0], a[1], n, all));
      }
      case "array_length", "cardinality" -> {
        s.arity(1, name.equals("cardinality") ? 1 : 2).list(0);
        if (args.size() == 2) {
          s.integer(1);
        }
        return s.call(Kind.LONG, (a, n, c) -> ListFunctions.length(a, n));
      }
      case "coalesce" -> {
        s.arity(1, Integer.MAX_VALUE);
        Kind k = b.common(nodes, args, "COALESCE");
        return Conditionals.coalesce(k, b.convertAll(args, k), src);
      }
      case "nullif" -> {
        s.arity(2, 2);
        Kind k = b.common(nodes, args, "NULLIF");
        Eval x = b.convert(args.get(0), k);
        Eval eq = b.compare("=", nodes.get(0), x, nodes.get(1), b.convert(args.get(1), k));
        return Conditionals.nullIf(x, eq, src);
      }
      default -> throw b.typeError("calls unknown function '" + call.name() + "'");
    }
  }

  /** Argument checks for one call, failing with the call's text and the offending argument. */
  private static final class Spec {
    private final Binder b;
    private final Node.Call call;
    private final String name;
    private final List<Eval> args;

    Spec(Binder b, Node.Call call, String name, List<Eval> args) {
      this.b = b;
      this.call = call;
      this.name = name;
      this.args = args;
    }

    Call call(Kind kind, Call.Body body) {
      return new Call(kind, name, args, body, b.source());
    }

    Spec arity(int min, int max) {
      int got = args.size();
      if (got < min || got > max) {
        String want = min == max ? String.valueOf(min) : max == Integer.MAX_VALUE ? min + " or more" : min + " to " + max;
        throw b.typeError("calls " + name + " with " + got + " argument" + (got == 1 ? "" : "s") + " but it takes "
            + want + ": " + b.text(call));
      }
      return this;
    }

    private void need(int k, boolean ok, String what) {
      if (!ok) {
        throw b.typeError("cannot apply " + name + " to " + b.describe(call.args().get(k), args.get(k)) + ": it needs "
            + what);
      }
    }

    // A NULL argument is accepted everywhere; it is given the kind wanted, and the result is NULL.
    private boolean nullAs(int k, Kind kind) {
      if (args.get(k).kind == Kind.NULL) {
        args.set(k, new Eval.Literal(kind, null));
        return true;
      }
      return false;
    }

    Spec string(int k) {
      need(k, nullAs(k, Kind.STRING) || args.get(k).kind == Kind.STRING, "a string");
      return this;
    }

    Spec integer(int k) {
      need(k, nullAs(k, Kind.LONG) || args.get(k).kind == Kind.LONG, "an integer");
      return this;
    }

    Spec number(int k) {
      need(k, nullAs(k, Kind.LONG) || args.get(k).kind.numeric(), "a number");
      return this;
    }

    Spec temporal(int k) {
      need(k, nullAs(k, Kind.TIMESTAMP) || args.get(k).kind == Kind.DATE || args.get(k).kind == Kind.TIMESTAMP,
          "a date or timestamp");
      return this;
    }

    Spec scalar(int k) {
      Kind kind = args.get(k).kind;
      need(k, nullAs(k, Kind.STRING) || (kind != Kind.LIST && kind != Kind.OTHER), "a single value");
      return this;
    }

    Spec list(int k) {
      need(k, args.get(k).kind == Kind.LIST, "a list");
      return this;
    }

    // Argument k is compared with the elements of list argument l.
    Spec element(int k, int l) {
      Kind e = args.get(l).elem;
      Kind kind = args.get(k).kind;
      need(k, nullAs(k, e) || kind == e || (kind.numeric() && e.numeric()), "a value like the list's elements ("
          + e.display + ")");
      return this;
    }

    Spec sameElements(int k, int l) {
      Kind a = args.get(k).elem;
      Kind c = args.get(l).elem;
      need(l, a == c || c == Kind.NULL || (a.numeric() && c.numeric()), "a list of " + a.display + " values");
      return this;
    }

    String constantString(int k) {
      Eval e = args.get(k);
      need(k, e instanceof Eval.Literal l && l.value instanceof String, "a constant string");
      return (String) ((Eval.Literal) e).value;
    }

    Pattern pattern() {
      String text = constantString(1);
      int flags = Pattern.UNICODE_CHARACTER_CLASS;
      if (args.size() == 3) {
        for (char f : constantString(2).toCharArray()) {
          flags |= switch (f) {
            case 'i' -> Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
            case 'm' -> Pattern.MULTILINE;
            case 's' -> Pattern.DOTALL;
            case 'x' -> Pattern.COMMENTS;
            default -> throw b.typeError("passes unknown regular expression flag '" + f + "' to " + name
                + " (known: i, m, s, x)");
          };
        }
      }
      try {
        return Pattern.compile(text, flags);
      } catch (PatternSyntaxException e) {
        throw b.typeError("passes an invalid regular expression '" + text + "' to " + name + ": "
            + e.getDescription());
      }
    }
  }

  /** For regexp_match: the groups of the first match (the whole match without groups), or null. */
  static List<String> groups(Matcher m) {
    List<String> out = new ArrayList<>();
    if (m.groupCount() == 0) {
      out.add(m.group());
    }
    for (int g = 1; g <= m.groupCount(); g++) {
      out.add(m.group(g));
    }
    return out;
  }
}
