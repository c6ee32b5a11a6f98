package dev.javelin.spark;

import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.V2CommandExec;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A statement on a Javelin table run on the driver as one library call: an update, or a merge
 * fed by the rows of its one child (the MERGE's source, streamed to the driver).
 */
final class DmlExec extends V2CommandExec {
  private static final long serialVersionUID = 1L;
  private final String description;
  private final SparkPlan source;
  private final transient Consumer<SparkPlan> action;

  DmlExec(String description, SparkPlan source, Consumer<SparkPlan> action) {
    this.description = description;
    this.source = source;
    this.action = action;
  }

  @Override
  public Seq<InternalRow> run() {
    action.accept(source);
    return empty();
  }

  @Override
  public Seq<Attribute> output() {
    return empty();
  }

  @Override
  public Seq<SparkPlan> children() {
    return source == null ? empty() : CollectionConverters.asScala(List.of(source)).toList();
  }

  @Override
  public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
    return new DmlExec(description, newChildren.isEmpty() ? null : newChildren.apply(0), action);
  }

  // Spark copies plan nodes by reflection over their constructor, which this one's action is not part of.
  @Override
  public SparkPlan makeCopy(Object[] newArgs) {
    return new DmlExec(description, source, action);
  }

  @Override
  public SparkPlan clone() {
    return new DmlExec(description, source, action);
  }

  @Override
  public String simpleString(int maxFields) {
    return description;
  }

  @Override
  public int productArity() {
    return 1;
  }

  @Override
  public Object productElement(int n) {
    if (n == 0) {
      return description;
    }
    throw new IndexOutOfBoundsException(n);
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof DmlExec;
  }

  private static <T> Seq<T> empty() {
    return CollectionConverters.asScala(List.<T>of()).toList();
  }
}
