package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** DELETE's predicates in Javelin's language: all of a predicate, or nothing. */
class PredicateTranslatorTest {
  private static Expression column(String name) {
    return Expressions.column(name);
  }

  private static Expression string(String s) {
    return new LiteralValue<>(UTF8String.fromString(s), DataTypes.StringType);
  }

  private static Expression number(long v) {
    return new LiteralValue<>(v, DataTypes.LongType);
  }

  private static Predicate predicate(String name, Expression... children) {
    return new Predicate(name, children);
  }

  @Test
  void translatesWholePredicates() {
    Predicate mod = predicate("=", new GeneralScalarExpression("%", new Expression[] {column("id"), number(10)}),
        number(3));
    Predicate named = predicate("=", column("name"), string("it's"));
    assertThat(PredicateTranslator.translate(new Predicate[] {new Or(mod, named)}))
        .isEqualTo("((((`id`) % (10)) = (3)) OR ((`name`) = ('it''s')))");
    assertThat(PredicateTranslator.translate(new Predicate[] {predicate("IS_NULL", column("name")),
        predicate("STARTS_WITH", column("name"), string("ab"))}))
        .isEqualTo("((`name`) IS NULL) AND ((`name`) LIKE 'ab%')");
    assertThat(PredicateTranslator.translate(new Predicate[0])).isEqualTo("TRUE");
  }

  @Test
  void refusesAPredicateWithAnyPartItCannotExpress() {
    Predicate division = predicate("=", new GeneralScalarExpression("/", new Expression[] {column("id"), number(2)}),
        number(3));
    Predicate realArithmetic = predicate(">", new GeneralScalarExpression("*",
        new Expression[] {column("score"), new LiteralValue<>(2.0, DataTypes.DoubleType)}), number(3));
    Predicate wildcard = predicate("STARTS_WITH", column("name"), string("a%"));
    Predicate nested = predicate("=", Expressions.column("a.b"), number(1));
    Predicate fine = predicate("=", column("id"), number(1));
    for (Predicate p : new Predicate[] {division, realArithmetic, wildcard, nested}) {
      assertThat(PredicateTranslator.translate(new Predicate[] {new Or(fine, p)})).as(p.toString()).isNull();
      assertThat(PredicateTranslator.translate(new Predicate[] {fine, p})).as(p.toString()).isNull();
    }
  }
}
