package dev.javelin.cli;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a CSV file (RFC 4180: comma separated, '"' quotes, '""' inside quotes, newlines allowed
 * in quoted cells, CRLF or LF) into records, one at a time. An unquoted empty cell comes back as
 * null, a quoted one ({@code ""}) as the empty string. Blank lines are skipped.
 */
final class CsvParser implements Closeable {
  private final String location;
  private final Reader in;
  private int line = 1;
  private int recordLine;
  private int pending = -2;

  private CsvParser(String location, Reader in) {
    this.location = location;
    this.in = in;
  }

  static CsvParser open(Path path) throws IOException {
    BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8);
    CsvParser p = new CsvParser(path.toString(), r);
    int first = p.read();
    if (first != '\uFEFF') {
      p.pending = first;
    }
    return p;
  }

  /** The line the last record returned by {@link #next()} started on, from 1. */
  int recordLine() {
    return recordLine;
  }

  private int read() throws IOException {
    if (pending != -2) {
      int c = pending;
      pending = -2;
      return c;
    }
    return in.read();
  }

  /**
   * The next record, or null at the end of the file.
   *
   * @throws InvalidInputException if a quoted cell is not closed or text follows a closing quote
   */
  String[] next() throws IOException {
    int c = read();
    while (c == '\n' || c == '\r') {
      c = endLine(c);
    }
    if (c == -1) {
      return null;
    }
    recordLine = line;
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    while (true) {
      boolean quoted = false;
      cell.setLength(0);
      if (c == '"') {
        quoted = true;
        int startLine = line;
        while (true) {
          c = read();
          if (c == -1) {
            throw new InvalidInputException(
                "Quoted cell starting on line " + startLine + " of " + location + " is never closed");
          }
          if (c == '"') {
            c = read();
            if (c != '"') {
              break;
            }
          } else if (c == '\n') {
            line++;
          }
          cell.append((char) c);
        }
        if (c != ',' && c != '\n' && c != '\r' && c != -1) {
          throw new InvalidInputException("Unexpected text after a closing quote on line " + line + " of " + location
              + " (a '\"' inside a quoted cell is written '\"\"')");
        }
      } else {
        while (c != ',' && c != '\n' && c != '\r' && c != -1) {
          cell.append((char) c);
          c = read();
        }
      }
      cells.add(quoted || cell.length() > 0 ? cell.toString() : null);
      if (c == ',') {
        c = read();
        continue;
      }
      if (c != -1) {
        pending = endLine(c);
      }
      return cells.toArray(new String[0]);
    }
  }

  // Consumes a line end (LF, CR or CRLF) whose first char is c; returns the char after it.
  private int endLine(int c) throws IOException {
    line++;
    int n = read();
    if (c == '\r' && n == '\n') {
      n = read();
    }
    return n;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
