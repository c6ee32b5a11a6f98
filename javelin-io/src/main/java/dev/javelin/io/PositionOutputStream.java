package dev.javelin.io;

import java.io.OutputStream;

/** An output stream that knows how many bytes it has written. */
public abstract class PositionOutputStream extends OutputStream {
  /** The number of bytes written so far: the position of the next byte. */
  public abstract long position();
}
