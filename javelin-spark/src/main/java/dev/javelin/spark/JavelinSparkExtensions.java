package dev.javelin.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Spark session extensions for Javelin tables ({@code spark.sql.extensions=dev.javelin.spark
 * .JavelinSparkExtensions}): {@code UPDATE} and {@code MERGE INTO} on a Javelin table run as one
 * Javelin update or merge_insert commit (see {@link RowLevelStrategy}).
 */
public final class JavelinSparkExtensions implements Function1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectPlannerStrategy(session -> new RowLevelStrategy());
    return BoxedUnit.UNIT;
  }
}
