package dev.javelin.core.exceptions;


/**
 * New column values do not line up with the dataset's rows: a stream gave more or fewer values
 * than the dataset has rows, or a function returned a batch of another length than it was given.
 * The files written for the new columns were deleted; the dataset is unchanged.
 */
public final class ColumnLengthMismatchException extends SchemaEvolutionException {
  private final long expected;
  private final long actual;

  public ColumnLengthMismatchException(String message, String column, long expected, long actual) {
    super(message, column);
    this.expected = expected;
    this.actual = actual;
  }

  /** The rows the dataset (or the batch given to a function) has. */
  public long expectedRows() {
    return expected;
  }

  /** The values given; for a stream that ran on, the rows seen before stopping. */
  public long actualRows() {
    return actual;
  }
}
