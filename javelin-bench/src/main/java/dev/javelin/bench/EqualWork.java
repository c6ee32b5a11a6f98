package dev.javelin.bench;

import java.util.Objects;

/**
 * The check every benchmark's set-up makes before timing anything: both sides, run once on the
 * same input, returned the same thing (a {@link Digest} of rows and a checksum over
 * every column's values, compaction outcomes, recall). A mismatch fails the trial, so no table row
 * compares different work.
 */
final class EqualWork {
  private EqualWork() {}

  /**
   * @throws IllegalStateException if {@code javelin} and {@code lance} differ
   */
  static <T> T check(String operation, T javelin, T lance) {
    if (!Objects.equals(javelin, lance)) {
      throw new IllegalStateException("Unequal work in " + operation + ": Javelin returned " + javelin
          + ", lance-core " + lance);
    }
    return javelin;
  }
}
