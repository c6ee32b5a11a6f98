package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionTypeException;
import dev.javelin.core.exceptions.UnknownColumnException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Resolves columns against a schema, checks operand types and inserts widening conversions. */
final class Binder {
  private final String source;
  private final String role;
  private final Schema schema;
  final Set<String> columns = new LinkedHashSet<>();

  Binder(String source, String role, Schema schema) {
    this.source = source;
    this.role = role;
    this.schema = schema;
  }

  Eval bind(Node node) {
    if (node instanceof Node.Column c) {
      return column(c);
    }
    if (node instanceof Node.Literal l) {
      return new Eval.Literal(l.kind(), l.value());
    }
    if (node instanceof Node.Unary u) {
      Eval arg = bind(u.arg());
      if (u.op().equals("NOT")) {
        return new Eval.Not(condition(u.arg(), arg));
      }
      if (arg.kind == Kind.NULL) {
        return new Eval.Literal(Kind.LONG, null);
      }
      if (!arg.kind.numeric()) {
        throw typeError("cannot negate " + describe(u.arg(), arg));
      }
      return new Eval.Negate(arg);
    }
    if (node instanceof Node.Binary b) {
      return binary(b);
    }
    if (node instanceof Node.IsNull n) {
      return new Eval.IsNull(bind(n.arg()), n.negated());
    }
    if (node instanceof Node.IsBool ib) {
      return Conditionals.isBool(condition(ib.arg(), bind(ib.arg())), ib.value(), ib.negated(), source);
    }
    if (node instanceof Node.Call call) {
      return fold(Functions.bind(this, call));
    }
    if (node instanceof Node.Cast cast) {
      Eval arg = bind(cast.arg());
      if (!Casts.allowed(arg.kind, cast.type())) {
        throw typeError("cannot cast " + describe(cast.arg(), arg) + " to " + cast.type());
      }
      return fold(Casts.of(arg, cast.type(), cast.lenient(), source));
    }
    if (node instanceof Node.Case c) {
      return caseWhen(c);
    }
    if (node instanceof Node.Array a) {
      return array(a);
    }
    if (node instanceof Node.Index ix) {
      return index(ix);
    }
    if (node instanceof Node.Logic l) {
      List<Eval> parts = new ArrayList<>(l.parts().size());
      for (Node p : l.parts()) {
        parts.add(condition(p, bind(p)));
      }
      return chain(l.and(), parts);
    }
    if (node instanceof Node.In in) {
      // The argument is bound once; each item is compared as "arg = item" would be.
      Eval arg = bind(in.arg());
      List<Eval> eqs = new ArrayList<>(in.list().size());
      for (Node item : in.list()) {
        eqs.add(compare("=", in.arg(), arg, item, bind(item)));
      }
      Eval any = chain(false, eqs);
      return in.negated() ? new Eval.Not(any) : any;
    }
    if (node instanceof Node.Between bt) {
      Eval range = new Eval.Logic(true, compare(">=", bt.arg(), bt.low()), compare("<=", bt.arg(), bt.high()));
      return bt.negated() ? new Eval.Not(range) : range;
    }
    Node.Like like = (Node.Like) node;
    Eval arg = bind(like.arg());
    if (arg.kind == Kind.NULL) {
      return new Eval.Literal(Kind.BOOL, null);
    }
    String op = like.caseless() ? "ILIKE" : "LIKE";
    if (arg.kind != Kind.STRING) {
      throw typeError("cannot apply " + op + " to " + describe(like.arg(), arg) + ": it needs a string");
    }
    Like pattern = new Like(like.caseless() ? like.pattern().toLowerCase(Locale.ROOT) : like.pattern());
    return new Eval.LikeEval(arg, pattern, like.negated(), like.caseless());
  }

  /** The source text of the expression being bound. */
  String source() {
    return source;
  }

  // A call whose arguments are all constants is computed once, here: constant casts that fail,
  // fail when the filter is bound, as in Lance.
  private static final VectorSchemaRoot ONE_ROW = new VectorSchemaRoot(List.of(), List.of(), 1);

  private static Eval fold(Eval e) {
    if (!(e instanceof Call c) || e.kind == Kind.LIST || e.kind == Kind.OTHER) {
      return e;
    }
    for (Eval a : c.args) {
      if (!(a instanceof Eval.Literal)) {
        return e;
      }
    }
    Values v = c.eval(ONE_ROW);
    return new Eval.Literal(e.kind, v.get(0));
  }

  private Eval caseWhen(Node.Case c) {
    List<Node> valueNodes = new ArrayList<>(c.thens());
    List<Eval> values = new ArrayList<>();
    for (Node t : c.thens()) {
      values.add(bind(t));
    }
    Eval otherwise = c.otherwise() == null ? new Eval.Literal(Kind.NULL, null) : bind(c.otherwise());
    valueNodes.add(c.otherwise() == null ? c : c.otherwise());
    values.add(otherwise);
    Kind kind = common(valueNodes, values, "CASE");
    Eval operand = c.operand() == null ? null : bind(c.operand());
    List<Eval> pairs = new ArrayList<>();
    for (int k = 0; k < c.whens().size(); k++) {
      Node w = c.whens().get(k);
      Eval cond = operand == null ? condition(w, bind(w)) : compare("=", c.operand(), operand, w, bind(w));
      pairs.add(cond);
      pairs.add(convert(values.get(k), kind));
    }
    return Conditionals.caseWhen(kind, pairs, convert(otherwise, kind), source);
  }

  private Eval array(Node.Array a) {
    List<Eval> items = new ArrayList<>();
    for (Node item : a.items()) {
      items.add(bind(item));
    }
    Kind elem = items.isEmpty() ? Kind.NULL : common(a.items(), items, "an array");
    if (elem == Kind.LIST) {
      throw typeError("cannot hold lists in a list: " + text(a));
    }
    List<Eval> converted = convertAll(items, elem);
    return new Call(Kind.LIST, elem, "array", converted, (v, n, call) -> ListFunctions.array(elem, v, n), source);
  }

  // list[k], or struct['field'] (the same as struct.field).
  private Eval index(Node.Index ix) {
    Eval list = bind(ix.arg());
    if (ix.index() instanceof Node.Literal lit && lit.value() instanceof String field
        && ix.arg() instanceof Node.Column col && list instanceof Eval.Column c && c.type instanceof ArrowType.Struct) {
      List<String> path = new ArrayList<>(col.path());
      path.add(field);
      return column(new Node.Column(List.copyOf(path), ix.start(), ix.end()));
    }
    Eval index = bind(ix.index());
    if (list.kind != Kind.LIST) {
      throw typeError("cannot index " + describe(ix.arg(), list) + ": only lists have elements and structs fields");
    }
    if (index.kind == Kind.NULL) {
      index = new Eval.Literal(Kind.LONG, null);
    }
    if (index.kind != Kind.LONG) {
      throw typeError("cannot index a list with " + describe(ix.index(), index) + ": it needs an integer");
    }
    return new Call(list.elem, "element", List.of(list, index), (v, n, call) -> ListFunctions.element(v[0], v[1], n),
        source);
  }

  /**
   * The kind values of several branches share (CASE, COALESCE, arrays): integers with floats are
   * floats, dates with timestamps timestamps, anything with a string a string; NULLs take the
   * others' kind.
   */
  Kind common(List<Node> nodes, List<Eval> evals, String what) {
    Kind k = Kind.NULL;
    for (int i = 0; i < evals.size(); i++) {
      Kind e = evals.get(i).kind;
      if (e == Kind.OTHER || (e == Kind.LIST && evals.size() > 1)) {
        throw typeError("cannot use " + describe(nodes.get(i), evals.get(i)) + " in " + what);
      }
      if (k == Kind.NULL || k == e || e == Kind.NULL) {
        k = e == Kind.NULL ? k : e;
      } else if (k.numeric() && e.numeric()) {
        k = Kind.DOUBLE;
      } else if (temporal(k) && temporal(e)) {
        k = Kind.TIMESTAMP;
      } else if (k == Kind.STRING || e == Kind.STRING) {
        k = Kind.STRING;
      } else {
        throw typeError("cannot mix " + k.display + " and " + describe(nodes.get(i), evals.get(i)) + " in " + what);
      }
    }
    return k;
  }

  /** e as a value of kind `to` (one {@link #common} chose for it). */
  Eval convert(Eval e, Kind to) {
    if (e.kind == to || to == Kind.NULL) {
      return e;
    }
    if (e.kind == Kind.NULL) {
      return new Eval.Literal(to, null);
    }
    if (to == Kind.STRING) {
      return fold(Casts.of(e, "STRING", false, source));
    }
    return widen(e, to);
  }

  List<Eval> convertAll(List<Eval> evals, Kind to) {
    List<Eval> out = new ArrayList<>(evals.size());
    for (Eval e : evals) {
      out.add(convert(e, to));
    }
    return out;
  }

  /**
   * The AND or OR of conditions. ORed equalities of one column (or one widened column) with
   * constants become one hash lookup ({@link Eval.InSet}) at the place of the first of them, and
   * so do ANDed inequalities (as NOT of the lookup: the same under SQL's NULL rules), so a long
   * chain or IN list costs one probe per row.
   */
  private static Eval chain(boolean and, List<Eval> parts) {
    int op = and ? Eval.NE : Eval.EQ;
    Map<String, List<Object>> values = new LinkedHashMap<>();
    Map<String, Eval> args = new HashMap<>();
    Map<String, Eval> first = new HashMap<>();
    List<Object> order = new ArrayList<>(); // an Eval, or the key of a group
    for (Eval p : parts) {
      String key = null;
      Eval arg = null;
      Object value = null;
      if (p instanceof Eval.Compare c && c.op == op) {
        if (setKey(c.left) != null && c.right instanceof Eval.Literal lit && lit.value != null) {
          arg = c.left;
          value = lit.value;
        } else if (setKey(c.right) != null && c.left instanceof Eval.Literal lit && lit.value != null) {
          arg = c.right;
          value = lit.value;
        }
        key = arg == null ? null : setKey(arg);
      }
      if (key == null) {
        order.add(p);
        continue;
      }
      List<Object> vs = values.get(key);
      if (vs == null) {
        vs = new ArrayList<>();
        values.put(key, vs);
        args.put(key, arg);
        first.put(key, p);
        order.add(key);
      }
      vs.add(value);
    }
    List<Eval> out = new ArrayList<>(order.size());
    for (Object o : order) {
      if (o instanceof Eval e) {
        out.add(e);
      } else {
        List<Object> vs = values.get(o);
        if (vs.size() == 1) {
          out.add(first.get(o));
        } else {
          Eval set = new Eval.InSet(args.get(o), vs);
          out.add(and ? new Eval.Not(set) : set);
        }
      }
    }
    return out.size() == 1 ? out.get(0) : new Eval.Logic(and, out);
  }

  // What identifies a hash-lookup argument: a column, or a widened column, with its kind; null
  // for anything else (a computed value is left to the plain comparison).
  private static String setKey(Eval e) {
    if (e.kind == Kind.OTHER || e.kind == Kind.NULL) {
      return null;
    }
    if (e instanceof Eval.Column c) {
      return e.kind + ":" + c.dotted;
    }
    if (e instanceof Eval.Widen w && w.arg instanceof Eval.Column c) {
      return e.kind + "<" + c.kind + ":" + c.dotted;
    }
    return null;
  }

  private Eval binary(Node.Binary b) {
    switch (b.op()) {
      case "+":
      case "-":
      case "*":
      case "/":
      case "%":
        return arithmetic(b);
      case "||":
        return concat(b);
      default:
        return compare(b.op(), b.left(), b.right());
    }
  }

  // a || b: strings joined, NULL if either is; other values are written as CAST writes them.
  private Eval concat(Node.Binary b) {
    Eval l = bind(b.left());
    Eval r = bind(b.right());
    for (Node n : List.of(b.left(), b.right())) {
      Eval e = n == b.left() ? l : r;
      if (e.kind == Kind.LIST || e.kind == Kind.OTHER) {
        throw typeError("cannot apply || to " + describe(n, e));
      }
    }
    if (l.kind != Kind.STRING && r.kind != Kind.STRING && l.kind != Kind.NULL && r.kind != Kind.NULL) {
      throw typeError("cannot apply || to " + describe(b.left(), l) + " and " + describe(b.right(), r)
          + ": it joins strings");
    }
    List<Eval> args = List.of(convert(l, Kind.STRING), convert(r, Kind.STRING));
    return fold(new Call(Kind.STRING, "||", args, (v, n, call) -> StringFunctions.concat(v, n, false), source));
  }

  private Eval arithmetic(Node.Binary b) {
    // A left-deep chain (a + b + c ...) is walked down its left side in a loop, not by recursion.
    List<Node.Binary> spine = new ArrayList<>();
    Node n = b;
    while (n instanceof Node.Binary x && "+-*/%".contains(x.op())) {
      spine.add(x);
      n = x.left();
    }
    Eval l = bind(n);
    for (int k = spine.size() - 1; k >= 0; k--) {
      Node.Binary x = spine.get(k);
      l = arithmetic(x, l, bind(x.right()));
    }
    return l;
  }

  Eval arithmetic(Node.Binary b, Eval l, Eval r) {
    if (l.kind == Kind.NULL && r.kind == Kind.NULL) {
      return new Eval.Literal(Kind.LONG, null);
    }
    if (l.kind == Kind.NULL && r.kind.numeric()) {
      l = new Eval.Literal(r.kind, null);
    } else if (r.kind == Kind.NULL && l.kind.numeric()) {
      r = new Eval.Literal(l.kind, null);
    }
    if (!l.kind.numeric() || !r.kind.numeric()) {
      throw typeError("cannot apply " + b.op() + " to " + describe(b.left(), l) + " and " + describe(b.right(), r));
    }
    Kind k = l.kind == Kind.DOUBLE || r.kind == Kind.DOUBLE ? Kind.DOUBLE : Kind.LONG;
    return new Eval.Arith(k, b.op().charAt(0), widen(l, k), widen(r, k), source);
  }

  private Eval compare(String op, Node left, Node right) {
    return compare(op, left, bind(left), right, bind(right));
  }

  Eval compare(String op, Node left, Eval l, Node right, Eval r) {
    if (l.kind == Kind.NULL || r.kind == Kind.NULL) {
      if (l.kind == Kind.OTHER || r.kind == Kind.OTHER || l.kind == Kind.LIST || r.kind == Kind.LIST) {
        throw typeError("cannot compare " + describe(left, l) + " with " + describe(right, r));
      }
      // Comparing with NULL is never true or false.
      return new Eval.Literal(Kind.BOOL, null);
    }
    if (l.kind.numeric() && r.kind.numeric() && l.kind != r.kind) {
      l = widen(l, Kind.DOUBLE);
      r = widen(r, Kind.DOUBLE);
    } else if (l.kind == Kind.DATE && r.kind == Kind.TIMESTAMP) {
      l = new Eval.Widen(Kind.TIMESTAMP, l);
    } else if (l.kind == Kind.TIMESTAMP && r.kind == Kind.DATE) {
      r = new Eval.Widen(Kind.TIMESTAMP, r);
    } else if (temporal(l.kind) && r.kind == Kind.STRING && r instanceof Eval.Literal lit) {
      r = temporalLiteral(l.kind, lit, right);
    } else if (temporal(r.kind) && l.kind == Kind.STRING && l instanceof Eval.Literal lit) {
      l = temporalLiteral(r.kind, lit, left);
    }
    if (l.kind != r.kind || l.kind == Kind.OTHER || l.kind == Kind.LIST) {
      throw typeError("cannot compare " + describe(left, l) + " with " + describe(right, r));
    }
    return new Eval.Compare(Eval.opCode(op), l, r);
  }

  private static boolean temporal(Kind k) {
    return k == Kind.DATE || k == Kind.TIMESTAMP;
  }

  /** A string literal compared with a date or timestamp is read as one, as SQL engines do. */
  private Eval temporalLiteral(Kind kind, Eval.Literal lit, Node node) {
    String s = (String) lit.value;
    try {
      if (kind == Kind.DATE) {
        return new Eval.Literal(Kind.DATE, LocalDate.parse(s.trim()).toEpochDay());
      }
      return new Eval.Literal(Kind.TIMESTAMP, Parser.parseTimestampNanos(s));
    } catch (DateTimeParseException | ArithmeticException e) {
      throw typeError("cannot read " + text(node) + " as a " + kind.display);
    }
  }

  static Eval widen(Eval e, Kind to) {
    if (e.kind == to) {
      return e;
    }
    if (e.kind == Kind.NULL) {
      return new Eval.Literal(to, null);
    }
    if (e instanceof Eval.Literal lit && to == Kind.DOUBLE) {
      return new Eval.Literal(to, lit.value == null ? null : ((Number) lit.value).doubleValue());
    }
    return new Eval.Widen(to, e);
  }

  /**
   * e where a condition must stand. As in Lance, regexp_match there means "it matches" (its list
   * of groups is not NULL).
   */
  Eval condition(Node node, Eval e) {
    if (e.kind == Kind.NULL) {
      return new Eval.Literal(Kind.BOOL, null);
    }
    if (e instanceof Call c && c.name.equals("regexp_match")) {
      return new Eval.IsNull(e, true);
    }
    if (e.kind != Kind.BOOL) {
      throw typeError("needs a condition but " + describe(node, e) + " is not one");
    }
    return e;
  }

  private Eval column(Node.Column c) {
    List<Field> candidates = schema.getFields();
    List<String> path = new ArrayList<>();
    Field f = null;
    for (String part : c.path()) {
      f = path.isEmpty() ? findTop(part) : find(candidates, part);
      if (f == null) {
        throw new UnknownColumnException(source, role, c.dotted());
      }
      path.add(f.getName());
      candidates = f.getType() instanceof ArrowType.Struct ? f.getChildren() : List.of();
    }
    columns.add(path.get(0));
    Kind kind = kindOf(f.getType());
    Kind elem = null;
    if (kind == Kind.OTHER && isList(f.getType()) && f.getChildren().size() == 1) {
      Kind k = kindOf(f.getChildren().get(0).getType());
      if (k != Kind.OTHER) {
        kind = Kind.LIST;
        elem = k;
      }
    }
    return new Eval.Column(kind, elem, List.copyOf(path), f.getType());
  }

  private static boolean isList(ArrowType t) {
    return t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.FixedSizeList;
  }

  // The schema's top-level fields by exact name and by lower-case name, built on first use, so
  // binding many column references to a wide schema stays linear.
  private Map<String, Field> exact;
  private Map<String, List<Field>> loose;

  private Field findTop(String name) {
    if (exact == null) {
      exact = new HashMap<>();
      loose = new HashMap<>();
      for (Field f : schema.getFields()) {
        exact.putIfAbsent(f.getName(), f);
        loose.computeIfAbsent(f.getName().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(f);
      }
    }
    Field f = exact.get(name);
    if (f != null) {
      return f;
    }
    // equalsIgnoreCase is not always lower-case equality: check the candidates as find() does.
    List<Field> same = loose.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    return find(same, name);
  }

  /** Exact name first; otherwise a unique case-insensitive match (unquoted SQL names). */
  private static Field find(List<Field> fields, String name) {
    Field loose = null;
    int looseCount = 0;
    for (Field f : fields) {
      if (f.getName().equals(name)) {
        return f;
      }
      if (f.getName().equalsIgnoreCase(name)) {
        loose = f;
        looseCount++;
      }
    }
    return looseCount == 1 ? loose : null;
  }

  static Kind kindOf(ArrowType t) {
    return switch (t.getTypeID()) {
      case Int -> Kind.LONG;
      case FloatingPoint, Decimal -> Kind.DOUBLE;
      case Bool -> Kind.BOOL;
      case Utf8, LargeUtf8 -> Kind.STRING;
      case Date -> Kind.DATE;
      case Timestamp -> Kind.TIMESTAMP;
      default -> Kind.OTHER;
    };
  }

  String text(Node n) {
    return source.substring(n.start(), n.end());
  }

  String describe(Node n, Eval e) {
    String type = e instanceof Eval.Column c && (e.kind == Kind.OTHER || e.kind == Kind.LIST) ? c.type.toString()
        : e.kind == Kind.LIST ? "list of " + e.elem.display : e.kind.display;
    return text(n) + " (" + type + ")";
  }

  ExpressionTypeException typeError(String what) {
    return new ExpressionTypeException(source, role, what);
  }
}
