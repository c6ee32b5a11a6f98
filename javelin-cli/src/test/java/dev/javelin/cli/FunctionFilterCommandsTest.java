package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Filters with functions, casts and CASE through the command line; bad values are one line and exit 2. */
class FunctionFilterCommandsTest extends CliTestBase {
  private String create() throws Exception {
    text("rows.csv", "id,name,code,day\n1,Alice,12,2024-01-05\n2,bob,x7,2024-02-10\n3,ALINA,,2024-03-15\n"
        + "4,Émile,40,2024-02-29\n");
    String ds = path("ds");
    Result r = run("create", ds, "--input", path("rows.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    return ds;
  }

  private String ids(String ds, String filter) {
    Result r = run("scan", ds, "--format", "csv", "--columns", "id", "--filter", filter);
    assertThat(r.code).as(r.err).isZero();
    return r.out;
  }

  @Test
  void functionFiltersSelectRows() throws Exception {
    String ds = create();
    assertThat(ids(ds, "lower(name) LIKE 'al%'")).isEqualTo("id\n1\n3\n");
    assertThat(ids(ds, "name ILIKE 'é%' OR starts_with(name, 'b')")).isEqualTo("id\n2\n4\n");
    assertThat(ids(ds, "TRY_CAST(code AS INT) > 20")).isEqualTo("id\n4\n");
    assertThat(ids(ds, "date_part('month', CAST(day AS DATE)) = 2")).isEqualTo("id\n2\n4\n");
    assertThat(ids(ds, "CASE WHEN length(name) > 4 THEN 'long' ELSE 'short' END = 'long'")).isEqualTo("id\n1\n3\n4\n");
    assertThat(ids(ds, "COALESCE(code, 'none') = 'none'")).isEqualTo("id\n3\n");
    Result count = run("count", ds, "--filter", "regexp_like(name, '^[a-z]+$', 'i') AND id % 2 = 1");
    assertThat(count.code).as(count.err).isZero();
    assertThat(count.out).isEqualTo("2\n");
  }

  @Test
  void aValueThatDoesNotCastIsOneLineAndExitsTwo() throws Exception {
    String ds = create();
    Result r = run("count", ds, "--filter", "CAST(code AS INT) > 20");
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.out).isEmpty();
    assertThat(r.err).isEqualTo("javelin: Expression 'CAST(code AS INT) > 20' cannot cast string 'x7' to INT\n");
    Result unknown = run("scan", ds, "--filter", "lowr(name) = 'a'");
    assertThat(unknown.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(unknown.err).isEqualTo("javelin: Cannot parse 'lowr(name) = 'a'' at position 1: unknown function 'lowr'\n");
  }
}
