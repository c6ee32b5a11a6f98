package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.MergeInsertBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases$;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.objects.AssertNotNull;
import org.apache.spark.sql.catalyst.plans.logical.Assignment;
import org.apache.spark.sql.catalyst.plans.logical.DeleteAction;
import org.apache.spark.sql.catalyst.plans.logical.InsertAction;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeAction;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.UpdateAction;
import org.apache.spark.sql.catalyst.plans.logical.UpdateTable;
import org.apache.spark.sql.catalyst.util.V2ExpressionBuilder;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import org.apache.spark.sql.util.ArrowUtils;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Plans {@code UPDATE} and {@code MERGE INTO} on a Javelin table as one library call each, so
 * each is one commit with the library's conflict handling (rebuilt on the newest version when a
 * concurrent commit allows it, else a CommitConflictException):
 *
 * <ul>
 *   <li>{@code UPDATE t SET c = expr, ... [WHERE cond]}: Javelin's update, when the condition and
 *       every value have a Javelin form (columns, literals, comparisons, AND/OR/NOT, IN, IS NULL,
 *       integer + - * %); otherwise a clear error.
 *   <li>{@code MERGE INTO t USING s ON t.k = s.k [AND ...]} with {@code WHEN MATCHED THEN UPDATE
 *       SET *} or {@code DELETE}, {@code WHEN NOT MATCHED THEN INSERT *}, {@code WHEN NOT MATCHED
 *       BY SOURCE THEN DELETE} (each at most once, without a condition): Javelin's merge_insert,
 *       the source's rows streamed to the driver. Any other shape is refused with a message
 *       naming what is supported.
 * </ul>
 */
final class RowLevelStrategy extends SparkStrategy {
  static final String MERGE_SHAPE = "Javelin runs MERGE INTO as merge_insert: ON equality of target and source "
      + "columns of the same name (AND-ed), WHEN MATCHED THEN UPDATE SET * or DELETE, WHEN NOT MATCHED THEN "
      + "INSERT *, WHEN NOT MATCHED BY SOURCE THEN DELETE, each at most once and without a condition";

  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (plan instanceof UpdateTable u) {
      JavelinTable t = javelinTable(u.table());
      if (t != null) {
        return one(update(t, u));
      }
    } else if (plan instanceof MergeIntoTable m) {
      JavelinTable t = javelinTable(m.targetTable());
      if (t != null) {
        return one(merge(t, m));
      }
    }
    return CollectionConverters.asScala(List.<SparkPlan>of()).toList();
  }

  private static Seq<SparkPlan> one(SparkPlan p) {
    return CollectionConverters.asScala(List.of(p)).toList();
  }

  private static JavelinTable javelinTable(LogicalPlan plan) {
    LogicalPlan p = EliminateSubqueryAliases$.MODULE$.apply(plan);
    // The optimizer has made the target a scan relation by the time strategies run.
    if (p instanceof DataSourceV2ScanRelation s) {
      p = s.relation();
    }
    if (p instanceof DataSourceV2Relation r && r.table() instanceof JavelinTable t) {
      return t;
    }
    return null;
  }

  private static String javelin(Expression e, String statement, String what) {
    Option<org.apache.spark.sql.connector.expressions.Expression> v2 = new V2ExpressionBuilder(e, false).build();
    String out = v2.isDefined() ? PredicateTranslator.expression(v2.get()) : null;
    if (out == null) {
      throw new IllegalArgumentException(statement + ": " + what + " " + e.sql() + " has no Javelin form (columns, "
          + "literals, comparisons, AND/OR/NOT, IN, IS NULL, integer + - * %)");
    }
    return out;
  }

  private static SparkPlan update(JavelinTable t, UpdateTable u) {
    String statement = "UPDATE " + t.name();
    String filter = u.condition().isDefined() ? javelin(u.condition().get(), statement, "the condition") : null;
    Map<String, String> set = new LinkedHashMap<>();
    for (Assignment a : CollectionConverters.asJava(u.assignments())) {
      if (!(a.key() instanceof AttributeReference column)) {
        throw new IllegalArgumentException(statement + ": Javelin sets top-level columns only, not " + a.key().sql());
      }
      set.put(column.name(), javelin(a.value(), statement, "the value"));
    }
    return new DmlExec(statement + " SET " + set + (filter == null ? "" : " WHERE " + filter), null, source -> {
      Dataset ds = JavelinTable.open(t.uri(), t.storage(), null, null);
      ds.update(filter, set);
    });
  }

  private SparkPlan merge(JavelinTable t, MergeIntoTable m) {
    String statement = "MERGE INTO " + t.name();
    List<Attribute> target = CollectionConverters.asJava(m.targetTable().output());
    List<Attribute> source = CollectionConverters.asJava(m.sourceTable().output());
    List<String> keys = new ArrayList<>();
    for (Expression c : conjuncts(m.mergeCondition())) {
      if (!(c instanceof EqualTo eq) || !(eq.left() instanceof AttributeReference l)
          || !(eq.right() instanceof AttributeReference r)) {
        throw refused(statement, "ON " + c.sql());
      }
      AttributeReference tk = has(target, l) ? l : has(target, r) ? r : null;
      AttributeReference sk = has(source, r) ? r : has(source, l) ? l : null;
      if (tk == null || sk == null || !tk.name().equals(sk.name())) {
        throw refused(statement, "ON " + c.sql());
      }
      keys.add(tk.name());
    }
    List<MergeAction> matched = CollectionConverters.asJava(m.matchedActions());
    List<MergeAction> notMatched = CollectionConverters.asJava(m.notMatchedActions());
    List<MergeAction> bySource = CollectionConverters.asJava(m.notMatchedBySourceActions());
    if (matched.size() > 1 || notMatched.size() > 1 || bySource.size() > 1) {
      throw refused(statement, "several WHEN clauses of one kind");
    }
    String onMatch = "nothing";
    if (!matched.isEmpty()) {
      MergeAction a = matched.get(0);
      if (a.condition().isDefined()) {
        throw refused(statement, "WHEN MATCHED AND " + a.condition().get().sql());
      }
      if (a instanceof DeleteAction) {
        onMatch = "delete";
      } else if (a instanceof UpdateAction up && isStar(up.assignments(), target, source)) {
        onMatch = "update";
      } else {
        throw refused(statement, "WHEN MATCHED THEN " + a.sql());
      }
    }
    boolean insert = false;
    if (!notMatched.isEmpty()) {
      MergeAction a = notMatched.get(0);
      if (a.condition().isDefined() || !(a instanceof InsertAction in) || !isStar(in.assignments(), target, source)) {
        throw refused(statement, "WHEN NOT MATCHED " + a.sql());
      }
      insert = true;
    }
    boolean deleteBySource = false;
    if (!bySource.isEmpty()) {
      MergeAction a = bySource.get(0);
      if (a.condition().isDefined() || !(a instanceof DeleteAction)) {
        throw refused(statement, "WHEN NOT MATCHED BY SOURCE " + a.sql());
      }
      deleteBySource = true;
    }
    // The source's columns in the target's order, by name (a MERGE with '*' names them all).
    List<NamedExpression> projection = new ArrayList<>();
    for (Attribute column : target) {
      projection.add(source.stream().filter(s -> s.name().equals(column.name())).findFirst()
          .orElseThrow(() -> refused(statement, "a source without column " + column.name())));
    }
    LogicalPlan rows = new Project(CollectionConverters.asScala(projection).toList(), m.sourceTable());
    String matchAction = onMatch;
    boolean insertAll = insert;
    boolean delete = deleteBySource;
    String description = statement + " ON " + keys + " matched: " + onMatch + ", not matched: "
        + (insert ? "insert" : "nothing") + ", not matched by source: " + (delete ? "delete" : "keep");
    return new DmlExec(description, planLater(rows), plan -> {
      Dataset ds = JavelinTable.open(t.uri(), t.storage(), null, null);
      List<Field> fields = new ArrayList<>();
      for (Attribute column : target) {
        fields.add(ds.schema().toArrow().getFields().stream().filter(f -> f.getName().equals(column.name()))
            .findFirst().orElseThrow());
      }
      BufferAllocator allocator = ArrowUtils.rootAllocator().newChildAllocator("merge " + t.name(), 0, Long.MAX_VALUE);
      try (RowsReader reader = new RowsReader(plan.executeToIterator(), new Schema(fields), allocator)) {
        MergeInsertBuilder b = ds.mergeInsert(reader).on(keys);
        switch (matchAction) {
          case "update" -> b.whenMatchedUpdateAll();
          case "delete" -> b.whenMatchedDelete();
          default -> b.whenMatchedDoNothing();
        }
        if (insertAll) {
          b.whenNotMatchedInsertAll();
        } else {
          b.whenNotMatchedDoNothing();
        }
        if (delete) {
          b.whenNotMatchedBySourceDelete();
        } else {
          b.whenNotMatchedBySourceKeep();
        }
        b.commit();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        allocator.close();
      }
    });
  }

  private static List<Expression> conjuncts(Expression e) {
    List<Expression> out = new ArrayList<>();
    if (e instanceof And a) {
      out.addAll(conjuncts(a.left()));
      out.addAll(conjuncts(a.right()));
    } else {
      out.add(e);
    }
    return out;
  }

  // Every target column assigned the source column of its name: what '*' resolves to.
  private static boolean isStar(Seq<Assignment> assignments, List<Attribute> target, List<Attribute> source) {
    List<Assignment> as = CollectionConverters.asJava(assignments);
    if (as.size() != target.size()) {
      return false;
    }
    for (Assignment a : as) {
      // Spark guards a nullable source column going into a NOT NULL one; Javelin's write refuses
      // the nulls itself (NullValueException naming the column).
      Expression value = a.value() instanceof AssertNotNull n ? n.child() : a.value();
      if (!(a.key() instanceof AttributeReference k) || !has(target, k)
          || !(value instanceof AttributeReference v) || !has(source, v) || !v.name().equals(k.name())) {
        return false;
      }
    }
    return true;
  }

  // By expression id: the statement's references carry qualifiers (t.id) that the plans' outputs lack.
  private static boolean has(List<Attribute> attributes, AttributeReference a) {
    return attributes.stream().anyMatch(x -> x.exprId().equals(a.exprId()));
  }

  private static IllegalArgumentException refused(String statement, String what) {
    return new IllegalArgumentException(statement + ": " + MERGE_SHAPE + "; this statement has " + what);
  }
}
