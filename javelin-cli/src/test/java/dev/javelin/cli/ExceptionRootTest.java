package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.common.JavelinException;
import dev.javelin.core.exceptions.ExpressionSyntaxException;
import dev.javelin.core.exceptions.IndexExistsException;
import dev.javelin.core.exceptions.UnknownColumnException;
import org.junit.jupiter.api.Test;

/** The CLI's own refusal is a JavelinException too, and the exit codes did not move with the roots. */
class ExceptionRootTest {
  private final ErrorHandler handler = new ErrorHandler();

  @Test
  void invalidInputIsAJavelinException() {
    InvalidInputException e = new InvalidInputException("--k must be at least 1, got 0");
    assertThat(e).isInstanceOf(JavelinException.class);
    assertThat(handler.getExitCode(e)).isEqualTo(ExitCodes.INVALID_INPUT);
  }

  @Test
  void expressionAndIndexStateErrorsAreStillInvalidInput() {
    assertThat(handler.getExitCode(new ExpressionSyntaxException("id =", 4, "expected a value")))
        .isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(handler.getExitCode(new UnknownColumnException("nope = 1", "Filter", "nope")))
        .isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(handler.getExitCode(new IndexExistsException("/data/ds", "id_idx")))
        .isEqualTo(ExitCodes.INVALID_INPUT);
  }
}
