package dev.javelin.table.exceptions;


/** A dataset uses feature flags this version of Javelin cannot read, or cannot write. */
public class UnsupportedFeatureException extends TableException {
  private final long flags;

  UnsupportedFeatureException(String message, long flags) {
    super(message);
    this.flags = flags;
  }

  /** The flag bits that are not understood. */
  public long flags() {
    return flags;
  }
}
