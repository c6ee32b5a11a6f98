package dev.javelin.cli;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens the text inputs (CSV, JSON Lines) in a given encoding, strictly: a byte that is not of
 * the encoding is an error that names its line and offset, never a silently replaced character.
 */
final class TextFiles {
  private TextFiles() {}

  /**
   * The charset an {@code --encoding} names ("utf-8", "latin1", "windows-1252", ...).
   *
   * @throws InvalidInputException if Java knows no such encoding
   */
  static Charset charset(String name) {
    if (name == null) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name.trim());
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw new InvalidInputException("Unknown --encoding '" + name + "' (e.g. utf-8, latin1, windows-1252, utf-16)");
    }
  }

  /** A reader of the file's text, without a leading byte order mark. */
  static Reader open(Path path, Charset charset) throws IOException {
    CharsetDecoder decoder = charset.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    InputStream in = Files.newInputStream(path);
    try {
      PushbackReader r = new PushbackReader(new BufferedReader(new InputStreamReader(in, decoder), 1 << 16));
      int first = r.read();
      if (first != -1 && first != '\uFEFF') {
        r.unread(first);
      }
      return r;
    } catch (CharacterCodingException e) {
      in.close();
      throw notDecodable(path, charset, e);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The error for a file that is not in the encoding it was read with, naming the first bad byte. */
  static InvalidInputException notDecodable(Path path, Charset charset, CharacterCodingException cause) {
    String where = "";
    if (charset.equals(StandardCharsets.UTF_8)) {
      try {
        where = firstBadUtf8(path);
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
    }
    return new InvalidInputException(path + " is not " + charset.name() + " text" + where
        + "; name its encoding with --encoding (e.g. --encoding latin1)", cause);
  }

  // ": line L has byte 0xE9 (offset B) that is not UTF-8", found by reading the bytes again.
  private static String firstBadUtf8(Path path) throws IOException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
      long offset = 0;
      long line = 1;
      int need = 0;
      long start = 0;
      int lead = 0;
      for (int b = in.read(); b != -1; b = in.read(), offset++) {
        if (need > 0) {
          if ((b & 0xC0) != 0x80) {
            return at(line, lead, start);
          }
          need--;
          continue;
        }
        start = offset;
        lead = b;
        if (b == '\n') {
          line++;
        } else if (b >= 0x80) {
          if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
          } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
          } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
          } else {
            return at(line, b, offset);
          }
        }
      }
      return need > 0 ? at(line, lead, start) : "";
    }
  }

  private static String at(long line, int b, long offset) {
    return String.format(Locale.ROOT, ": line %d has byte 0x%02X (at byte offset %d) that is not valid UTF-8",
        line, b, offset);
  }
}
