package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Terminal widths, checked against Python's wcwidth 0.7 (wcswidth) for the same strings. */
class DisplayWidthTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "abc|3",
    "日本語|6",
    "ｶﾀｶﾅ|4",            // halfwidth katakana: narrow
    "ＡＢＣ|6",           // fullwidth Latin: wide
    "한국어|6",
    "中a文|5",
    "Ω|1",
    "🎉x|3",
    "👍|2",
  })
  void widthsOfPlainText(String s, int width) {
    assertThat(DisplayWidth.of(s)).isEqualTo(width);
  }

  @Test
  void combiningAndZeroWidthCharactersTakeNoColumn() {
    assertThat(DisplayWidth.of("e\u0301")).isEqualTo(1);           // e + combining acute
    assertThat(DisplayWidth.of("e\u0301\u0301")).isEqualTo(1);
    assertThat(DisplayWidth.of("\u200b")).isZero();                // zero width space
    assertThat(DisplayWidth.of("\u1100\u1161\u11a8")).isEqualTo(2); // Hangul jamo: one syllable
    assertThat(DisplayWidth.of("a\u200db")).isEqualTo(1);          // ZWJ joins b into a
  }

  @Test
  void emojiSequencesAreOnePicture() {
    assertThat(DisplayWidth.of("👍🏽")).isEqualTo(2);                 // skin tone
    assertThat(DisplayWidth.of("👨\u200d👩\u200d👧")).isEqualTo(2);   // family, a ZWJ sequence
    assertThat(DisplayWidth.of("🇳🇴")).isEqualTo(2);                  // a flag: two regional indicators
    assertThat(DisplayWidth.of("🇳🇴🇫🇷")).isEqualTo(4);
    assertThat(DisplayWidth.of("❤")).isEqualTo(1);                   // a text symbol
    assertThat(DisplayWidth.of("❤\ufe0f")).isEqualTo(2);             // VS16: its emoji form
  }

  @Test
  void padAndCutCountColumnsNotChars() {
    assertThat(DisplayWidth.pad("日本", 6, false)).isEqualTo("日本  ");
    assertThat(DisplayWidth.pad("日本", 6, true)).isEqualTo("  日本");
    assertThat(DisplayWidth.pad("toolong", 3, false)).isEqualTo("toolong");
    assertThat(DisplayWidth.cut("日本語の文章です", 9)).isEqualTo("日本語...");   // 6 + 3
    assertThat(DisplayWidth.cut("日本語の文章です", 10)).isEqualTo("日本語...");  // a half character never shows
    assertThat(DisplayWidth.cut("abcdef", 6)).isEqualTo("abcdef");
    assertThat(DisplayWidth.cut("abcdefg", 6)).isEqualTo("abc...");
    assertThat(DisplayWidth.cut("ae\u0301bcdefg", 6)).isEqualTo("ae\u0301b...");  // the mark stays with its e
    assertThat(DisplayWidth.cut("👨\u200d👩\u200d👧abcdef", 6)).isEqualTo("👨\u200d👩\u200d👧a...");
  }
}
