package dev.javelin.cli;

/**
 * How many terminal columns text takes, for aligning tables: East Asian wide and fullwidth
 * characters and emoji take 2, combining marks, zero-width and format characters 0, the rest 1
 * (the rules of {@code wcwidth}, with emoji sequences as terminals draw them: a ZWJ sequence, a
 * flag or an emoji with a skin tone is one 2-column picture, and VS16 makes a text symbol an emoji).
 */
final class DisplayWidth {
  // East Asian Wide (W) and Fullwidth (F) ranges and emoji presentation characters, Unicode 15,
  // as pairs [first, last], ascending.
  private static final int[] WIDE = {
    0x1100, 0x115F, 0x231A, 0x231B, 0x2329, 0x232A, 0x23E9, 0x23EC, 0x23F0, 0x23F0, 0x23F3, 0x23F3,
    0x25FD, 0x25FE, 0x2614, 0x2615, 0x2648, 0x2653, 0x267F, 0x267F, 0x2693, 0x2693, 0x26A1, 0x26A1,
    0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE, 0x26CE, 0x26D4, 0x26D4, 0x26EA, 0x26EA,
    0x26F2, 0x26F3, 0x26F5, 0x26F5, 0x26FA, 0x26FA, 0x26FD, 0x26FD, 0x2705, 0x2705, 0x270A, 0x270B,
    0x2728, 0x2728, 0x274C, 0x274C, 0x274E, 0x274E, 0x2753, 0x2755, 0x2757, 0x2757, 0x2795, 0x2797,
    0x27B0, 0x27B0, 0x27BF, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B50, 0x2B55, 0x2B55,
    0x2E80, 0x2E99, 0x2E9B, 0x2EF3, 0x2F00, 0x2FD5, 0x2FF0, 0x2FFF, 0x3000, 0x303E, 0x3041, 0x3096,
    0x3099, 0x30FF, 0x3105, 0x312F, 0x3131, 0x318E, 0x3190, 0x31E3, 0x31EF, 0x321E, 0x3220, 0x3247,
    0x3250, 0x4DBF, 0x4E00, 0xA48C, 0xA490, 0xA4C6, 0xA960, 0xA97C, 0xAC00, 0xD7A3, 0xF900, 0xFAFF,
    0xFE10, 0xFE19, 0xFE30, 0xFE52, 0xFE54, 0xFE66, 0xFE68, 0xFE6B, 0xFF01, 0xFF60, 0xFFE0, 0xFFE6,
    0x16FE0, 0x16FE4, 0x16FF0, 0x16FF1, 0x17000, 0x187F7, 0x18800, 0x18CD5, 0x18D00, 0x18D08,
    0x1AFF0, 0x1AFF3, 0x1AFF5, 0x1AFFB, 0x1AFFD, 0x1AFFE, 0x1B000, 0x1B122, 0x1B132, 0x1B132,
    0x1B150, 0x1B152, 0x1B155, 0x1B155, 0x1B164, 0x1B167, 0x1B170, 0x1B2FB,
    0x1F004, 0x1F004, 0x1F0CF, 0x1F0CF, 0x1F18E, 0x1F18E, 0x1F191, 0x1F19A, 0x1F200, 0x1F202,
    0x1F210, 0x1F23B, 0x1F240, 0x1F248, 0x1F250, 0x1F251, 0x1F260, 0x1F265,
    0x1F300, 0x1F320, 0x1F32D, 0x1F335, 0x1F337, 0x1F37C, 0x1F37E, 0x1F393, 0x1F3A0, 0x1F3CA,
    0x1F3CF, 0x1F3D3, 0x1F3E0, 0x1F3F0, 0x1F3F4, 0x1F3F4, 0x1F3F8, 0x1F43E, 0x1F440, 0x1F440,
    0x1F442, 0x1F4FC, 0x1F4FF, 0x1F53D, 0x1F54B, 0x1F54E, 0x1F550, 0x1F567, 0x1F57A, 0x1F57A,
    0x1F595, 0x1F596, 0x1F5A4, 0x1F5A4, 0x1F5FB, 0x1F64F, 0x1F680, 0x1F6C5, 0x1F6CC, 0x1F6CC,
    0x1F6D0, 0x1F6D2, 0x1F6D5, 0x1F6D7, 0x1F6DC, 0x1F6DF, 0x1F6EB, 0x1F6EC, 0x1F6F4, 0x1F6FC,
    0x1F7E0, 0x1F7EB, 0x1F7F0, 0x1F7F0, 0x1F90C, 0x1F93A, 0x1F93C, 0x1F945, 0x1F947, 0x1F9FF,
    0x1FA70, 0x1FA7C, 0x1FA80, 0x1FA88, 0x1FA90, 0x1FABD, 0x1FABF, 0x1FAC5, 0x1FACE, 0x1FADB,
    0x1FAE0, 0x1FAE8, 0x1FAF0, 0x1FAF8, 0x20000, 0x2FFFD, 0x30000, 0x3FFFD
  };

  private static final int ZWJ = 0x200D;
  private static final int VS16 = 0xFE0F;

  private DisplayWidth() {}

  /** The columns one code point takes on its own: 0, 1 or 2. */
  static int of(int cp) {
    if (cp == 0) {
      return 0;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
      return 0; // control characters draw nothing (callers escape them first)
    }
    if (cp < 0x300) {
      return 1;
    }
    int type = Character.getType(cp);
    if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
        || (cp >= 0x1160 && cp <= 0x11FF) || (cp >= 0xD7B0 && cp <= 0xD7FF) || cp == 0x200B) {
      return 0; // combining marks, ZWJ and other format characters, Hangul medial and final jamo
    }
    return wide(cp) ? 2 : 1;
  }

  private static boolean wide(int cp) {
    int lo = 0;
    int hi = WIDE.length / 2 - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (cp < WIDE[2 * mid]) {
        hi = mid - 1;
      } else if (cp > WIDE[2 * mid + 1]) {
        lo = mid + 1;
      } else {
        return true;
      }
    }
    return false;
  }

  private static boolean regionalIndicator(int cp) {
    return cp >= 0x1F1E6 && cp <= 0x1F1FF;
  }

  private static boolean skinTone(int cp) {
    return cp >= 0x1F3FB && cp <= 0x1F3FF;
  }

  /** The columns {@code s} takes in a terminal. */
  static int of(String s) {
    int width = 0;
    int i = 0;
    int previous = -1;
    boolean afterZwj = false;
    boolean flagOpen = false;
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      int w;
      if (afterZwj && previous >= 0) {
        w = 0; // joined into the picture before the ZWJ
      } else if (cp == VS16 && previous >= 0 && of(previous) == 1) {
        w = 1; // an emoji presentation of a text symbol: one column more
      } else if (skinTone(cp) && previous >= 0 && of(previous) == 2) {
        w = 0;
      } else if (regionalIndicator(cp)) {
        w = flagOpen ? 0 : 2; // a pair of regional indicators is one flag
        flagOpen = !flagOpen;
      } else {
        w = of(cp);
      }
      if (!regionalIndicator(cp)) {
        flagOpen = false;
      }
      afterZwj = cp == ZWJ;
      if (cp != ZWJ) {
        previous = cp;
      }
      width += w;
    }
    return width;
  }

  /** {@code s} padded with spaces to {@code width} columns, on the left if {@code right}-aligned. */
  static String pad(String s, int width, boolean right) {
    String spaces = " ".repeat(Math.max(0, width - of(s)));
    return right ? spaces + s : s + spaces;
  }

  /**
   * {@code s} if it fits in {@code width} columns, else as much of it as fits with "..." (never
   * splitting a wide character or a combining sequence). {@code width} is at least 3.
   */
  static String cut(String s, int width) {
    if (of(s) <= width) {
      return s;
    }
    int budget = width - 3;
    int used = 0;
    int end = 0;
    int i = 0;
    while (i < s.length()) {
      int next = i + Character.charCount(s.codePointAt(i));
      // Extend over what attaches to this character (marks, ZWJ sequences, VS16, skin tones).
      while (next < s.length()) {
        int cp = s.codePointAt(next);
        int prev = s.codePointBefore(next);
        if (of(cp) == 0 || prev == ZWJ || skinTone(cp) || cp == VS16) {
          next += Character.charCount(cp);
        } else {
          break;
        }
      }
      used += of(s.substring(i, next));
      if (used > budget) {
        break;
      }
      end = next;
      i = next;
    }
    return s.substring(0, end) + "...";
  }
}
