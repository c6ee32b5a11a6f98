package dev.javelin.index.internal.ngram;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NGramTokensTest {
  private static List<Integer> text(String s) {
    List<Integer> out = new ArrayList<>();
    NGramTokens.ofText(s, out::add);
    return out;
  }

  private static List<Integer> literal(String s) {
    List<Integer> out = new ArrayList<>();
    NGramTokens.ofLiteral(s, out::add);
    return out;
  }

  // Lance's numbering: 0-9 are 1-10, a-z 11-36, three places in base 37.
  private static int token(String trigram) {
    int t = 0;
    for (char c : trigram.toCharArray()) {
      t = t * 37 + (c <= '9' ? c - '0' + 1 : c - 'a' + 11);
    }
    return t;
  }

  @Test
  void trigramsOfLowerCasedFoldedLettersAndDigits() {
    assertThat(text("Ab9 x")).containsExactly(token("ab9"));
    assertThat(token("ab9")).isEqualTo(11 * 37 * 37 + 12 * 37 + 10);
    assertThat(text("Éclair")).containsExactly(token("ecl"), token("cla"), token("lai"), token("air"));
    assertThat(text("straße")).containsExactly(token("str"), token("tra"), token("ras"), token("ass"), token("sse"));
    assertThat(text("ab")).isEmpty();
    assertThat(text("a-b-c")).isEmpty();
  }

  @Test
  void literalsGiveOnlyWindowsOfAsciiLettersAndDigitsWhichEveryFoldingKeeps() {
    assertThat(literal("XYZ1")).containsExactly(token("xyz"), token("yz1"));
    // "éclair" folds to "eclair" in an index, but the literal's "écl" window is left out.
    assertThat(literal("éclair")).containsExactly(token("cla"), token("lai"), token("air"));
    assertThat(NGramTokens.any(List.of("ab", "c d"))).isFalse();
    assertThat(NGramTokens.any(List.of("ab", "cde"))).isTrue();
  }
}
