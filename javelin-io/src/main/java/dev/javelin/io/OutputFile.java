package dev.javelin.io;

import java.io.IOException;

/** A file to create and write once, front to back. */
public interface OutputFile {
  /** Where the file goes, for error messages. */
  String location();

  /** Creates the file; fails if it exists. The caller closes the stream. */
  PositionOutputStream create() throws IOException;

  /** Removes the file, if it exists; used to clean up after a failed write. */
  void delete() throws IOException;
}
