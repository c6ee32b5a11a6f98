package dev.javelin.table;

import java.util.OptionalLong;

/**
 * The two ways Lance names manifests in {@code _versions/}. A dataset keeps the scheme it has;
 * new datasets use V2, like Lance 7.
 */
public enum ManifestNaming {
  /** {@code {version}.manifest}. */
  V1,
  /**
   * {@code {u64::MAX - version}.manifest}, zero-padded to 20 digits, so that a lexicographic
   * listing returns the newest version first.
   */
  V2;

  static final String SUFFIX = ".manifest";
  private static final int V2_NAME_LENGTH = 20 + SUFFIX.length();

  /** The file name of a version. */
  public String fileName(long version) {
    if (this == V1) {
      return Long.toUnsignedString(version) + SUFFIX;
    }
    String inverted = Long.toUnsignedString(-1L - version);
    return "0".repeat(20 - inverted.length()) + inverted + SUFFIX;
  }

  /** The key of a version's manifest. */
  public String key(long version) {
    return "_versions/" + fileName(version);
  }

  /** Which scheme a manifest file name uses; null if it is not a manifest name (e.g. detached {@code d5.manifest}). */
  static ManifestNaming of(String fileName) {
    if (!fileName.endsWith(SUFFIX) || fileName.length() == SUFFIX.length()) {
      return null;
    }
    for (int i = 0; i < fileName.length() - SUFFIX.length(); i++) {
      if (!Character.isDigit(fileName.charAt(i))) {
        return null;
      }
    }
    return fileName.length() == V2_NAME_LENGTH ? V2 : V1;
  }

  /** The version a manifest file name stands for, or empty if it is not a manifest name. */
  static OptionalLong version(String fileName) {
    ManifestNaming naming = of(fileName);
    if (naming == null) {
      return OptionalLong.empty();
    }
    String digits = fileName.substring(0, fileName.length() - SUFFIX.length());
    try {
      long n = Long.parseUnsignedLong(digits);
      return OptionalLong.of(naming == V1 ? n : -1L - n);
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
