package dev.javelin.cli;

import dev.javelin.core.expr.Expression;

/**
 * The filter language in a few lines, for the help of every command that takes one. picocli
 * formats help text with String.format, so a literal percent sign is written {@code %%}.
 */
final class FilterHelp {
  static final String TEXT =
      "Filters are SQL expressions over columns (nested fields as a.b, odd names in\n" +
      "`backticks`, list elements as tags[1]):\n" +
      "  = != <> < <= > >=   AND OR NOT ( )   IN (...)   NOT IN (...)   IS [NOT] NULL\n" +
      "  BETWEEN a AND b     LIKE 'pre%%'  (%% any run, _ one character)   + - * / %%\n" +
      "  ILIKE   IS [NOT] TRUE/FALSE   ||   CAST(x AS type)   x::type   TRY_CAST(...)\n" +
      "  CASE WHEN c THEN v ... ELSE v END   COALESCE(a, b, ...)   NULLIF(a, b)\n" +
      "  functions: lower upper length substr trim ltrim rtrim starts_with ends_with\n" +
      "  strpos contains concat regexp_like regexp_match abs round floor ceil mod\n" +
      "  date_trunc date_part EXTRACT(part FROM x) now() array_has array_has_any\n" +
      "  array_has_all array_length\n" +
      "  literals: 42  1.5  'text' (quote ' as '')  TRUE FALSE NULL  date '2024-05-31'\n" +
      "            timestamp '2024-05-31 12:00:00'  ['a', 'b']\n" +
      "A row is kept only if the filter is TRUE; a comparison with NULL is not TRUE.\n" +
      "IN lists and AND/OR chains may be of any length; nesting is limited to\n" +
      Expression.MAX_DEPTH + " levels (each pair of parentheses, NOT, sign and operator is one).";

  private FilterHelp() {}
}
