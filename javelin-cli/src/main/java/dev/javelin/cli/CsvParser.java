package dev.javelin.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.QuoteMode;

/**
 * Splits a CSV file (RFC 4180: comma separated unless told otherwise, '"' quotes, '""' inside quotes, newlines allowed
 * in quoted cells, CRLF or LF) into records, one at a time, with Apache Commons CSV. An unquoted
 * empty cell comes back as null, a quoted one ({@code ""}) as the empty string. Blank lines are
 * skipped, a leading byte order mark is dropped, and errors name the line they are on.
 */
final class CsvParser implements Closeable {
  // ALL_NON_NULL tells ,, (null) from ,"", (empty); empty lines come through so that lines count.
  private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder()
      .setQuoteMode(QuoteMode.ALL_NON_NULL)
      .setIgnoreEmptyLines(false)
      .setTrailingData(false)
      .setLenientEof(false)
      .get();
  /** The separators {@link #detectDelimiter} considers, in order of preference on a tie. */
  private static final char[] DELIMITERS = {',', ';', '\t', '|'};
  private static final Pattern START_LINE = Pattern.compile("^\\(startline ([^)]*)\\) EOF reached");

  private final String location;
  private final Path path;
  private final Charset charset;
  private final org.apache.commons.csv.CSVParser csv;
  private final Iterator<CSVRecord> records;
  // The line the next record starts on, counting the line breaks of quoted cells as LF only.
  private long line = 1;
  // Lone CRs inside quoted cells so far: Commons CSV counts them as line breaks, this parser not.
  private long loneCrs;
  private long recordLine;

  private CsvParser(String location, Path path, Charset charset, org.apache.commons.csv.CSVParser csv) {
    this.location = location;
    this.path = path;
    this.charset = charset;
    this.csv = csv;
    this.records = csv.iterator();
  }

  static CsvParser open(Path path) throws IOException {
    return open(path, StandardCharsets.UTF_8, ',');
  }

  /** Opens a file of the given encoding whose cells are separated by {@code delimiter}. */
  static CsvParser open(Path path, Charset charset, char delimiter) throws IOException {
    Reader in = TextFiles.open(path, charset);
    try {
      CSVFormat format = delimiter == ',' ? FORMAT : FORMAT.builder().setDelimiter(delimiter).get();
      return new CsvParser(path.toString(), path, charset, format.parse(in));
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * The separator of a file's header line: whichever of , ; tab | it has most of outside
   * quotes (a comma when it has none of them, as a one-column file has).
   */
  static char detectDelimiter(Path path, Charset charset) throws IOException {
    int[] counts = new int[DELIMITERS.length];
    try (Reader in = TextFiles.open(path, charset)) {
      boolean quoted = false;
      for (int c = in.read(); c != -1; c = in.read()) {
        if (c == '"') {
          quoted = !quoted;
        } else if (!quoted && (c == '\n' || c == '\r')) {
          break;
        } else if (!quoted) {
          for (int i = 0; i < DELIMITERS.length; i++) {
            if (c == DELIMITERS[i]) {
              counts[i]++;
            }
          }
        }
      }
    } catch (CharacterCodingException e) {
      throw TextFiles.notDecodable(path, charset, e);
    }
    int best = 0;
    for (int i = 1; i < counts.length; i++) {
      if (counts[i] > counts[best]) {
        best = i;
      }
    }
    return DELIMITERS[best];
  }

  /** The line the last record returned by {@link #next()} started on, from 1. */
  int recordLine() {
    return (int) recordLine;
  }

  /**
   * The next record, or null at the end of the file.
   *
   * @throws InvalidInputException if a quoted cell is not closed or text follows a closing quote
   */
  String[] next() throws IOException {
    while (true) {
      CSVRecord record;
      try {
        if (!records.hasNext()) {
          return null;
        }
        record = records.next();
      } catch (UncheckedIOException e) {
        throw translate(e.getCause());
      }
      String[] cells = record.values();
      recordLine = line;
      line++;
      for (String cell : cells) {
        if (cell != null) {
          count(cell);
        }
      }
      if (cells.length != 1 || cells[0] != null) {
        return cells;
      }
      // A blank line: a record of one unquoted empty cell.
    }
  }

  // Adds the line breaks inside a quoted cell.
  private void count(String cell) {
    for (int i = 0; i < cell.length(); i++) {
      char c = cell.charAt(i);
      if (c == '\n') {
        line++;
      } else if (c == '\r' && (i + 1 == cell.length() || cell.charAt(i + 1) != '\n')) {
        loneCrs++;
      }
    }
  }

  // Commons CSV's quoting errors in this parser's words and line numbers; other I/O errors as they are.
  private IOException translate(IOException e) {
    if (e instanceof CharacterCodingException) {
      throw TextFiles.notDecodable(path, charset, (CharacterCodingException) e);
    }
    if (e instanceof CSVException) {
      String message = e.getMessage();
      Matcher m = START_LINE.matcher(message);
      if (m.find()) {
        String digits = m.group(1).replaceAll("[^0-9]", "");
        long start = digits.isEmpty() ? line : Long.parseLong(digits) - loneCrs;
        throw new InvalidInputException(
            "Quoted cell starting on line " + start + " of " + location + " is never closed");
      }
      if (message.startsWith("Invalid character between encapsulated token and delimiter")) {
        throw new InvalidInputException("Unexpected text after a closing quote on line "
            + (csv.getCurrentLineNumber() - loneCrs) + " of " + location
            + " (a '\"' inside a quoted cell is written '\"\"')");
      }
    }
    return e;
  }

  @Override
  public void close() throws IOException {
    csv.close();
  }
}
