package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.expr.Expression;
import dev.javelin.core.expr.FilterShape;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.Or;
import org.junit.jupiter.api.Test;

class FilterTranslatorTest {
  @Test
  void longChainsFromSparkBecomeOneFlatChain() {
    // Spark hands a long OR over as a left-deep binary tree.
    Filter f = new EqualTo("id", 0L);
    for (long v = 1; v < 20_000; v++) {
      f = new Or(f, new EqualTo("id", v));
    }
    String sql = FilterTranslator.translate(f);
    assertThat(sql).startsWith("(`id` = 0) OR (`id` = 1) OR ");
    FilterShape shape = Expression.parse(sql).shape();
    assertThat(((FilterShape.Or) shape).parts()).singleElement()
        .satisfies(p -> assertThat(((FilterShape.Compare) p).values()).hasSize(20_000));
    assertThat(FilterTranslator.translate(new And(new GreaterThan("a", 1), new And(new EqualTo("b", 2), f))))
        .startsWith("(`a` > 1) AND (`b` = 2) AND ((`id` = 0) OR ");
  }

  @Test
  void filtersNestedPastTheLimitAreLeftToSpark() {
    Filter f = new EqualTo("id", 0L);
    for (int i = 0; i < Expression.MAX_DEPTH; i++) {
      f = i % 2 == 0 ? new And(new EqualTo("a", i), f) : new Or(new EqualTo("b", i), f);
    }
    assertThat(FilterTranslator.translate(f)).isNull();
  }
}
