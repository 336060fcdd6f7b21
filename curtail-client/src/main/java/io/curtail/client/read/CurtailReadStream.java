package io.curtail.client.read;

import io.curtail.client.stream.PositionalInputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.DFSClient;

/**
 * What Curtail's input streams, of replicated files and of erasure-coded ones, share of stock's
 * stream contract: a read on a closed file system, then on a closed stream, fails with stock's
 * texts, which users' code matches on; an array read's bounds are checked as stock checks them;
 * a one-byte read is an array read of one.
 */
public abstract class CurtailReadStream extends PositionalInputStream {
  private final DFSClient client;
  private final byte[] oneByte = new byte[1];
  /** Set once by {@code close}. */
  protected volatile boolean closed;

  protected CurtailReadStream(String file, DFSClient client) {
    super(file);
    this.client = client;
  }

  /** Fails as stock's stream does, with its texts: a closed file system, then a closed stream. */
  protected final void checkOpen() throws IOException {
    if (!client.isClientRunning()) {
      throw new IOException("Filesystem closed");
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
  }

  /** {@link #checkOpen}, then that {@code [off, off + len)} lies within {@code b}. */
  protected final void checkRead(byte[] b, int off, int len) throws IOException {
    checkOpen();
    if (off < 0 || len < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException("off=" + off + " len=" + len + " length=" + b.length);
    }
  }

  @Override
  public synchronized int read() throws IOException {
    int n = read(oneByte, 0, 1);
    return n < 0 ? -1 : oneByte[0] & 0xff;
  }
}
