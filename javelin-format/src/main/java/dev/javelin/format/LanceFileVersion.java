package dev.javelin.format;

import dev.javelin.format.exceptions.UnsupportedFormatException;
import java.util.Locale;

/**
 * The versions of the Lance 2.x file format that Javelin reads and writes.
 */
public enum LanceFileVersion {
  /** Format 2.0: the footer says 0.3 for historical reasons; data files record 2/0. */
  V2_0("2.0", 0, 3, 2, 0),
  /** Format 2.1: structural encoding (mini-block and full-zip pages, repetition/definition levels). */
  V2_1("2.1", 2, 1, 2, 1),
  /**
   * Format 2.2: the 2.1 layouts plus larger mini-block chunks (32-bit chunk sizes), constant pages,
   * compressed dictionaries and variable-width packed structs; the format lance-core writes for
   * {@code map} columns.
   */
  V2_2("2.2", 2, 2, 2, 2);

  private final String text;
  private final int footerMajor;
  private final int footerMinor;
  private final int major;
  private final int minor;

  LanceFileVersion(String text, int footerMajor, int footerMinor, int major, int minor) {
    this.text = text;
    this.footerMajor = footerMajor;
    this.footerMinor = footerMinor;
    this.major = major;
    this.minor = minor;
  }

  /** "2.0", "2.1" or "2.2". */
  @Override
  public String toString() {
    return text;
  }

  /** The major version a data file entry in a manifest records. */
  public int major() {
    return major;
  }

  /** The minor version a data file entry in a manifest records. */
  public int minor() {
    return minor;
  }

  public int footerMajor() {
    return footerMajor;
  }

  public int footerMinor() {
    return footerMinor;
  }

  /**
   * Parses a version Javelin writes: "2.0", "2.1", "2.2" or "stable" (2.1, what lance-core 7.0.0
   * writes by default).
   *
   * @throws IllegalArgumentException for any other text
   */
  public static LanceFileVersion parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    switch (t) {
      case "2.0":
        return V2_0;
      case "2.1":
      case "stable":
        return V2_1;
      case "2.2":
        return V2_2;
      default:
        throw new IllegalArgumentException(
            "Unknown Lance file version '" + text + "' (expected 2.0, 2.1 or 2.2)");
    }
  }

  /**
   * The version a footer's (major, minor) pair stands for.
   *
   * @throws UnsupportedFormatException for legacy (0.1, 0.2) and future versions
   */
  public static LanceFileVersion fromFooter(String location, int major, int minor) {
    for (LanceFileVersion v : values()) {
      if (v.footerMajor == major && v.footerMinor == minor) {
        return v;
      }
    }
    if (major == 0 && (minor == 1 || minor == 2)) {
      throw new UnsupportedFormatException(
          location, "Legacy Lance file version 0." + minor + " is not supported");
    }
    throw new UnsupportedFormatException(
        location, "Unsupported Lance file version " + major + "." + minor);
  }
}
