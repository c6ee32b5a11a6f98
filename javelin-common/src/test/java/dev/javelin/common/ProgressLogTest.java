package dev.javelin.common;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.common.Progress.Unit;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class ProgressLogTest {
  @Test
  void messagesSayTheStageCountsAndShare() {
    assertThat(ProgressLog.message(new Progress("compact", "rewrite and repack", 2000, 8000, Unit.ROWS, false)))
        .isEqualTo("compact: rewrite and repack: 2,000 of 8,000 rows (25%)");
    assertThat(ProgressLog.message(new Progress("cleanup", "delete files", 12, -1, Unit.FILES, true)))
        .isEqualTo("cleanup: delete files: 12 files, done");
  }

  @Test
  void aStageIsLoggedAtItsStartEachTenthAndItsEnd() {
    List<String> lines = new ArrayList<>();
    // A logger that keeps its INFO lines.
    Logger log = (Logger) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Logger.class},
        (proxy, method, args) -> {
          if (method.getName().equals("info") && args != null && args.length == 1) {
            lines.add((String) args[0]);
          }
          return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
        });
    try (ProgressStage s = ProgressStage.start(new ProgressLog(log), "cluster", "pass 1 of 2", 100, Unit.ROWS)) {
      for (int i = 0; i < 100; i++) {
        s.advance(1);
      }
    }
    assertThat(lines).hasSize(1 + 10 + 1);
    assertThat(lines.get(0)).isEqualTo("cluster: pass 1 of 2: 0 of 100 rows (0%)");
    assertThat(lines.get(11)).isEqualTo("cluster: pass 1 of 2: 100 of 100 rows (100%), done");
  }
}
