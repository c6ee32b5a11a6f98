package dev.javelin.bench;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThreadBudgetTest {
  @Test
  void refusesToRunWithoutOneBudgetForBothSides() {
    String before = System.getProperty(ThreadBudget.PROPERTY);
    try {
      System.clearProperty(ThreadBudget.PROPERTY);
      assertThatThrownBy(ThreadBudget::threads).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("No thread budget");
      // The test JVM's environment has no LANCE_CPU_THREADS matching 997 (and Java sees fewer processors).
      System.setProperty(ThreadBudget.PROPERTY, "997");
      assertThatThrownBy(ThreadBudget::threads).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Thread budgets differ");
    } finally {
      if (before == null) {
        System.clearProperty(ThreadBudget.PROPERTY);
      } else {
        System.setProperty(ThreadBudget.PROPERTY, before);
      }
    }
  }
}
