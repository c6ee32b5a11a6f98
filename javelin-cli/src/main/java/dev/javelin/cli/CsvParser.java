package dev.javelin.cli;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.PushbackReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.QuoteMode;

/**
 * Splits a CSV file (RFC 4180: comma separated, '"' quotes, '""' inside quotes, newlines allowed
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
  private static final Pattern START_LINE = Pattern.compile("^\\(startline ([^)]*)\\) EOF reached");

  private final String location;
  private final org.apache.commons.csv.CSVParser csv;
  private final Iterator<CSVRecord> records;
  // The line the next record starts on, counting the line breaks of quoted cells as LF only.
  private long line = 1;
  // Lone CRs inside quoted cells so far: Commons CSV counts them as line breaks, this parser not.
  private long loneCrs;
  private long recordLine;

  private CsvParser(String location, org.apache.commons.csv.CSVParser csv) {
    this.location = location;
    this.csv = csv;
    this.records = csv.iterator();
  }

  static CsvParser open(Path path) throws IOException {
    BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8);
    try {
      PushbackReader in = new PushbackReader(r);
      int first = in.read();
      if (first != -1 && first != '\uFEFF') {
        in.unread(first);
      }
      return new CsvParser(path.toString(), FORMAT.parse(in));
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
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
