package io.curtail.client.stream;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;

/**
 * An input stream whose positional reads (into an array or a buffer, whole or not) all come down
 * to one {@link #positionalRead}: the plumbing Hadoop's positional-read interfaces ask for,
 * written once for Curtail's stream and for stock's timed one.
 */
public abstract class PositionalInputStream extends FSInputStream
    implements ByteBufferPositionedReadable {
  /** The file read, for errors. */
  protected final String file;

  protected PositionalInputStream(String file) {
    this.file = file;
  }

  /**
   * Reads at {@code position} into {@code dst}: some bytes, 0 if {@code dst} has no room, -1 at
   * the end of the file.
   */
  protected abstract int positionalRead(long position, ByteBuffer dst) throws IOException;

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len); // the errors the contract asks for
    return positionalRead(position, ByteBuffer.wrap(b, off, len));
  }

  @Override
  public int read(long position, ByteBuffer dst) throws IOException {
    return positionalRead(position, dst);
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    while (dst.hasRemaining()) {
      int n = positionalRead(position, dst);
      if (n < 0) {
        throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + " at " + position
            + " of " + file);
      }
      position += n;
    }
  }
}
