package io.curtail.client.stream;

import java.io.IOException;
import java.io.OutputStream;
import java.util.EnumSet;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;

/**
 * An {@link HdfsDataOutputStream} writing through a stream other than stock's: applications that
 * test for the HDFS type (Storm's HDFS bolt, HBase's WAL checks) get Curtail's stream, with
 * {@code hsync(UPDATE_LENGTH)} and the current block's replication.
 *
 * <p>Why a subclass, and how. Hadoop's constructors (the same in 3.3 and 3.4) take a
 * {@code DFSOutputStream} or a {@code CryptoOutputStream} around one. Curtail's writer cannot be a
 * {@code DFSOutputStream} without taking on stock's packet and streamer state with it, and there
 * is no {@code DFSOutputStream} to hand, so this class passes none: the
 * {@code DFSOutputStream} constructor only stores it (a crypto one would check it). Writes go
 * through {@code out}, the field {@code FilterOutputStream} leaves protected for subclasses,
 * pointed at a plain {@link FSDataOutputStream} around the real stream (Curtail's, or a crypto
 * stream around it), which keeps the position and the file system's byte counts as stock's does;
 * every {@code DataOutputStream} method ({@code write}, {@code writeInt}, {@code flush}…) reaches
 * it. Every method {@code FSDataOutputStream} and {@code HdfsDataOutputStream} declare reads the
 * private stream given to the constructor or casts {@code out}, so each is answered here; a test
 * keeps that list whole against the Hadoop on the class path.
 */
public class CurtailDataOutputStream extends HdfsDataOutputStream {
  private final FSDataOutputStream inner;
  private final OutputStream wrapped;
  private final HdfsOutput stream;

  /**
   * @param wrapped what the bytes are written to: {@code stream} itself, or a crypto stream
   *     around it
   * @param stream the stream that writes the file and answers for the HDFS methods
   * @param statistics the file system's statistics, counting bytes written; null for none
   * @param startPosition the file's length when opened: 0, or where an append starts
   */
  public CurtailDataOutputStream(OutputStream wrapped, HdfsOutput stream,
      FileSystem.Statistics statistics, long startPosition) throws IOException {
    super((DFSOutputStream) null, null, startPosition);
    this.inner = new FSDataOutputStream(wrapped, statistics, startPosition);
    this.out = inner;
    this.wrapped = wrapped;
    this.stream = stream;
  }

  @Override
  public long getPos() {
    return inner.getPos();
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }

  @Override
  public OutputStream getWrappedStream() {
    return wrapped;
  }

  @Override
  public boolean hasCapability(String capability) {
    return inner.hasCapability(capability);
  }

  @Override
  public void hflush() throws IOException {
    inner.hflush();
  }

  @Override
  public void hsync() throws IOException {
    inner.hsync();
  }

  /** As {@link #hsync()}; {@code UPDATE_LENGTH} also records the length at the NameNode. */
  @Override
  public void hsync(EnumSet<SyncFlag> syncFlags) throws IOException {
    if (wrapped != stream) {
      wrapped.flush(); // the bytes a crypto stream holds back go first
    }
    stream.hsync(syncFlags);
  }

  @Override
  public synchronized int getCurrentBlockReplication() throws IOException {
    return stream.getCurrentBlockReplication();
  }

  @Override
  public void setDropBehind(Boolean dropBehind) throws IOException {
    inner.setDropBehind(dropBehind);
  }

  @Override
  public IOStatistics getIOStatistics() {
    return inner.getIOStatistics();
  }

  @Override
  public AbortableResult abort() {
    return inner.abort();
  }

  @Override
  public String toString() {
    return "CurtailDataOutputStream{" + inner + '}';
  }
}
