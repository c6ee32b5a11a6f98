package dev.javelin.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ExpressionSyntaxException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionParserTest {
  /** The tree fully parenthesised, so precedence is visible. */
  static String tree(Node n) {
    if (n instanceof Node.Column c) {
      return String.join(".", c.path());
    }
    if (n instanceof Node.Literal l) {
      return l.kind() == Kind.STRING ? "'" + l.value() + "'" : l.kind() + ":" + l.value();
    }
    if (n instanceof Node.Logic l) {
      return l.parts().stream().map(ExpressionParserTest::tree)
          .collect(Collectors.joining(l.and() ? " AND " : " OR ", "(", ")"));
    }
    if (n instanceof Node.Unary u) {
      return "(" + u.op() + " " + tree(u.arg()) + ")";
    }
    if (n instanceof Node.Binary b) {
      return "(" + tree(b.left()) + " " + b.op() + " " + tree(b.right()) + ")";
    }
    if (n instanceof Node.IsNull i) {
      return "(" + tree(i.arg()) + (i.negated() ? " IS NOT NULL)" : " IS NULL)");
    }
    if (n instanceof Node.In i) {
      return "(" + tree(i.arg()) + (i.negated() ? " NOT IN " : " IN ")
          + i.list().stream().map(ExpressionParserTest::tree).collect(Collectors.joining(", ", "[", "]")) + ")";
    }
    if (n instanceof Node.Between b) {
      return "(" + tree(b.arg()) + (b.negated() ? " NOT BETWEEN " : " BETWEEN ") + tree(b.low()) + " AND "
          + tree(b.high()) + ")";
    }
    Node.Like l = (Node.Like) n;
    return "(" + tree(l.arg()) + (l.negated() ? " NOT LIKE '" : " LIKE '") + l.pattern() + "')";
  }

  private static String parse(String sql) {
    return tree(Parser.parse(sql));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "a = 1 OR b = 2 AND c = 3        | ((a = LONG:1) OR ((b = LONG:2) AND (c = LONG:3)))",
      "(a = 1 OR b = 2) AND c = 3      | (((a = LONG:1) OR (b = LONG:2)) AND (c = LONG:3))",
      "NOT a = 1 AND b                 | ((NOT (a = LONG:1)) AND b)",
      "NOT NOT a                       | (NOT (NOT a))",
      "a + b * c - d / 2 > -3          | (((a + (b * c)) - (d / LONG:2)) > LONG:-3)",
      "a <> 1 and b != 2 or c == 3     | (((a != LONG:1) AND (b != LONG:2)) OR (c = LONG:3))",
      "x <= 1.5e3 AND y >= .25         | ((x <= DOUBLE:1500.0) AND (y >= DOUBLE:0.25))",
      "a IN (1, 2, 3)                  | (a IN [LONG:1, LONG:2, LONG:3])",
      "a not in ('x', 'y''s')          | (a NOT IN ['x', 'y's'])",
      "a IS NULL OR b IS NOT NULL      | ((a IS NULL) OR (b IS NOT NULL))",
      "a BETWEEN 1 AND 5 AND b         | ((a BETWEEN LONG:1 AND LONG:5) AND b)",
      "a NOT BETWEEN -1 AND 1 + 1      | (a NOT BETWEEN LONG:-1 AND (LONG:1 + LONG:1))",
      "name LIKE 'ab%' OR n NOT LIKE '_' | ((name LIKE 'ab%') OR (n NOT LIKE '_'))",
      "s.a.b = TRUE AND `my col` = FALSE | ((s.a.b = BOOL:true) AND (my col = BOOL:false))",
      "`odd.name` IS NULL              | (odd.name IS NULL)",
      "s = \"it's\"                    | (s = 'it's')",
      "d = DATE '2024-02-29'           | (d = DATE:19782)",
      "t < timestamp '1970-01-01 00:00:01.5' | (t < TIMESTAMP:1500000000)",
      "date > 3                        | (date > LONG:3)",
      "x = NULL                        | (x = NULL:null)",
      "-(a)                            | (- a)",
      "a = 1 OR b OR c AND d AND e OR f | ((a = LONG:1) OR b OR (c AND d AND e) OR f)",
      "(a OR b) OR c                   | ((a OR b) OR c)",
      "NOT a = 1 OR NOT NOT b          | ((NOT (a = LONG:1)) OR (NOT (NOT b)))",
      "- - a * -b                      | ((- (- a)) * (- b))",
      "99999999999999999999 > a        | (DOUBLE:1.0E20 > a)",
  })
  void parsesWithSqlPrecedence(String sql, String expected) {
    assertThat(parse(sql.trim())).isEqualTo(expected);
  }

  @Test
  void columnsAreListedOnceInOrderOfUse() {
    assertThat(Expression.parse("b > 1 AND a.x = 2 OR b < 0 AND c IN (a.y)").columns())
        .containsExactly("b", "a", "c");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "x >                 | Cannot parse 'x >' at position 4: expected a value but found the end",
      "x > > 1             | Cannot parse 'x > > 1' at position 5: expected a value but found '>'",
      "x = 1 y             | Cannot parse 'x = 1 y' at position 7: unexpected 'y'",
      "(x = 1              | Cannot parse '(x = 1' at position 7: expected ')' but found the end",
      "x = 'abc            | Cannot parse 'x = 'abc' at position 5: unterminated string",
      "`x = 1              | Cannot parse '`x = 1' at position 1: unterminated quoted identifier",
      "x = 1 AND           | Cannot parse 'x = 1 AND' at position 10: expected a value but found the end",
      "NOT a IS NULL = TRUE | Cannot parse 'NOT a IS NULL = TRUE' at position 15: unexpected '='",
      "a = - NOT b         | Cannot parse 'a = - NOT b' at position 7: expected a value but found 'NOT'",
      "x IS 1              | Cannot parse 'x IS 1' at position 6: expected NULL, TRUE or FALSE but found '1'",
      "x NOT 1             | Cannot parse 'x NOT 1' at position 7: expected IN, BETWEEN, LIKE or ILIKE after NOT but found '1'",
      "x BETWEEN 1 OR 2    | Cannot parse 'x BETWEEN 1 OR 2' at position 13: expected AND in BETWEEN but found 'OR'",
      "x LIKE y            | Cannot parse 'x LIKE y' at position 8: LIKE needs a string pattern but found 'y'",
      "x IN ()             | Cannot parse 'x IN ()' at position 7: expected a value but found ')'",
      "x = 1 ; drop        | Cannot parse 'x = 1 ; drop' at position 7: unexpected character ';'",
      "x = 12abc           | Cannot parse 'x = 12abc' at position 7: unexpected character 'a' after a number",
      "d = DATE '2024-13-01' | Cannot parse 'd = DATE '2024-13-01'' at position 10: '2024-13-01' is not a valid date (YYYY-MM-DD)",
      "s. = 1              | Cannot parse 's. = 1' at position 4: expected a field name after '.' but found '='",
  })
  void syntaxErrorsSayWhere(String sql, String message) {
    assertThatThrownBy(() -> Expression.parse(sql.trim()))
        .isInstanceOf(ExpressionSyntaxException.class)
        .hasMessage(message.trim());
  }

  @Test
  void emptyTextIsAnError() {
    assertThatThrownBy(() -> Expression.parse("  "))
        .isInstanceOf(ExpressionSyntaxException.class)
        .hasMessage("Cannot parse '  ' at position 3: the expression is empty")
        .extracting(e -> ((ExpressionSyntaxException) e).position()).isEqualTo(3);
  }
}
