package dev.javelin.cli;

/** The exit codes of {@code javelin}, fixed so that scripts can rely on them. */
public final class ExitCodes {
  /** The command did what was asked. */
  public static final int OK = 0;
  /**
   * The command failed for a reason outside the input: an I/O error, a full disk, a commit that
   * a concurrent writer made impossible.
   */
  public static final int GENERIC = 1;
  /**
   * The input was wrong: bad arguments, a missing or unreadable input file, a file that is not
   * Lance or is corrupt, a damaged or inconsistent manifest, a version or tag that does not exist,
   * an unknown column, a CSV cell that does not parse, a feature Javelin does not support yet.
   */
  public static final int INVALID_INPUT = 2;
  /** A bug in Javelin (sysexits' EX_SOFTWARE); run with --verbose and report it. */
  public static final int INTERNAL = 70;

  private ExitCodes() {}
}
