package dev.javelin.index.internal.ngram;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Lance's n-gram tokens: a text is lower-cased and folded to ASCII, then every window of three
 * characters that are all ASCII letters or digits is a token, numbered from its characters
 * (0-9 as 1-10, a-z as 11-36) in base 37.
 *
 * <p>Lance folds with Lucene's ASCII folding table; Javelin folds with Unicode's compatibility
 * decomposition without combining marks plus the letters that do not decompose, which agrees on
 * the letters that table covers for European scripts. Queries use only windows of literal ASCII
 * characters, which every folding keeps, so they find every matching row in an index either side
 * wrote.
 */
public final class NGramTokens {
  private NGramTokens() {}

  /** Characters per token. */
  public static final int N = 3;
  private static final int SPAN = 37;

  /** Hands every token of an indexed text to {@code out} (repeats included). */
  public static void ofText(String text, IntConsumer out) {
    windows(fold(text.toLowerCase(Locale.ROOT)), out);
  }

  /**
   * Hands {@code out} tokens every text holding {@code literal} (exactly, case included) has: the
   * windows of the literal's runs of ASCII letters and digits.
   */
  public static void ofLiteral(String literal, IntConsumer out) {
    windows(literal, out);
  }

  /** Whether any of {@code literals} has a token (else an index cannot narrow a search for them). */
  public static boolean any(List<String> literals) {
    boolean[] found = {false};
    for (String l : literals) {
      ofLiteral(l, t -> found[0] = true);
    }
    return found[0];
  }

  // The tokens of the runs of ASCII letters and digits of `s` (letters lower-cased).
  private static void windows(String s, IntConsumer out) {
    int run = 0;
    int a = 0;
    int b = 0;
    for (int i = 0; i < s.length(); i++) {
      int p = position(s.charAt(i));
      if (p == 0) {
        run = 0;
        continue;
      }
      run++;
      if (run >= N) {
        out.accept(a * SPAN * SPAN + b * SPAN + p);
      }
      a = b;
      b = p;
    }
  }

  // A character's place in the token alphabet (1-36), 0 when it is not an ASCII letter or digit.
  private static int position(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0' + 1;
    }
    if (c >= 'a' && c <= 'z') {
      return c - 'a' + 11;
    }
    if (c >= 'A' && c <= 'Z') {
      return c - 'A' + 11;
    }
    return 0;
  }

  // The ASCII folding of a lower-cased text: non-ASCII characters decomposed with their combining
  // marks dropped, or spelled out when they do not decompose.
  static String fold(String s) {
    boolean ascii = true;
    for (int i = 0; i < s.length() && ascii; i++) {
      ascii = s.charAt(i) < 0x80;
    }
    if (ascii) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp < 0x80) {
        out.append((char) cp);
        continue;
      }
      String spelled = spelled(cp);
      if (spelled != null) {
        out.append(spelled);
        continue;
      }
      String d = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKD);
      for (int j = 0; j < d.length(); j++) {
        char c = d.charAt(j);
        int type = Character.getType(c);
        if (type != Character.NON_SPACING_MARK && type != Character.COMBINING_SPACING_MARK
            && type != Character.ENCLOSING_MARK) {
          out.append(c);
        }
      }
    }
    return out.toString();
  }

  // Letters the decomposition leaves alone that Lance's folding spells in ASCII.
  private static String spelled(int cp) {
    switch (cp) {
      case 'ß': return "ss";
      case 'æ': return "ae";
      case 'œ': return "oe";
      case 'ø': return "o";
      case 'đ': case 'ð': return "d";
      case 'ħ': return "h";
      case 'ı': return "i";
      case 'ł': case 'ŀ': return "l";
      case 'ŋ': return "n";
      case 'þ': return "th";
      case 'ŧ': return "t";
      case 'ƒ': return "f";
      default: return null;
    }
  }
}
