package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.expr.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Long and deep filters on the command line: right answers, or one line and exit 2. */
class LongFilterCommandsTest extends CliTestBase {
  private String create() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 5000; i++) {
      csv.append(i).append(",n").append(i).append('\n');
    }
    text("rows.csv", csv.toString());
    String ds = path("ds");
    Result r = run("create", ds, "--input", path("rows.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(run("index", "create", ds, "--column", "id", "--type", "btree").code).isZero();
    return ds;
  }

  @Test
  void longOrChainsAndInListsCount() throws Exception {
    String ds = create();
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      values.add(String.valueOf(i * 7 - 20_000)); // multiples of 7 shifted: 5000 / 7 of them hit
    }
    long want = 0;
    for (int i = 0; i < 5000; i++) {
      want += (i + 20_000) % 7 == 0 ? 1 : 0;
    }
    Result in = run("count", ds, "--filter", "id IN (" + String.join(",", values) + ")");
    assertThat(in.code).as(in.err).isZero();
    assertThat(in.out).isEqualTo(want + "\n");
    Result or = run("count", ds, "--filter", values.stream().map(v -> "id = " + v).collect(Collectors.joining(" OR ")));
    assertThat(or.code).as(or.err).isZero();
    assertThat(or.out).isEqualTo(want + "\n");
  }

  @Test
  void tooDeepFiltersAreOneLineAndExitTwo() throws Exception {
    String ds = create();
    String deep = "(".repeat(1000) + "id = 1" + ")".repeat(1000);
    Result r = run("count", ds, "--filter", deep);
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.out).isEmpty();
    assertThat(r.err).isEqualTo("javelin: Cannot parse '" + deep.substring(0, 180) + "...' (2006 characters) at position "
        + (Expression.MAX_DEPTH + 1) + ": the expression is too deeply nested (at most 128 levels of parentheses, NOT, "
        + "signs and operators)\n");
    Result scan = run("scan", ds, "--filter", "NOT ".repeat(5000) + "id = 1");
    assertThat(scan.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(scan.err.lines().count()).isEqualTo(1);
    assertThat(scan.err).contains("too deeply nested");
  }
}
