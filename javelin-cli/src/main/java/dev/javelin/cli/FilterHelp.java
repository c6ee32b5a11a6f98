package dev.javelin.cli;

/** The filter language in a few lines, for the help of every command that takes one. */
final class FilterHelp {
  static final String TEXT = String.join("\n",
      "Filters are SQL expressions over columns (nested fields as a.b, odd names in `backticks`):",
      "  = != <> < <= > >=   AND OR NOT ( )   IN (...)   NOT IN (...)   IS [NOT] NULL",
      "  BETWEEN a AND b     LIKE 'pre%'  (% any run, _ one character)   + - * / %",
      "  literals: 42  1.5  'text' (quote ' as '')  TRUE FALSE NULL  date '2024-05-31'",
      "            timestamp '2024-05-31 12:00:00'",
      "A row is kept only if the filter is TRUE; a comparison with NULL is not TRUE.");

  private FilterHelp() {}
}
