package io.curtail.client.stream;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * An {@link HdfsDataInputStream} reading through a stream other than stock's: applications that
 * test for the HDFS type (Spark's history server, Storm's HDFS bolt) get Curtail's stream and its
 * read statistics, visible length and blocks.
 *
 * <p>Why a subclass, and how. Hadoop's constructors (the same in 3.3 and 3.4) take a
 * {@code DFSInputStream} or a {@code CryptoInputStream} around one, and every HDFS method casts the
 * wrapped stream to {@code DFSInputStream}. Making Curtail's stream a {@code DFSInputStream} is
 * not open to us (its constructor is package-private) and would drag in its read machinery. So
 * this class is built on the {@code DFSInputStream} the file was opened with (it passes the
 * constructor's checks; it never reads data), then points {@code in}, the field
 * {@code FilterInputStream} leaves protected for subclasses, at the stream that reads: every
 * method {@code FSDataInputStream} inherits or declares reads through {@code in}, so none can
 * reach the stock stream by mistake, and the six methods {@code HdfsDataInputStream} declares, the
 * only ones that cast, are answered here from {@link HdfsInput}. A test keeps that list whole
 * against the Hadoop on the class path.
 */
public class CurtailDataInputStream extends HdfsDataInputStream {
  private final HdfsInput stream;

  /**
   * @param opened the stock stream the file was opened with, which {@code stream} reads for
   * @param stream what reads, and answers for the HDFS methods
   */
  public <S extends InputStream & Seekable & PositionedReadable & HdfsInput> CurtailDataInputStream(
      DFSInputStream opened, S stream) {
    this(opened, stream, stream);
  }

  /**
   * @param opened the stock stream the file was opened with, which {@code stream} reads for
   * @param reading what the application's reads go to: {@code stream}, or a crypto stream
   *     around it (as stock's {@code HdfsDataInputStream} wraps its crypto stream, which
   *     {@link #getWrappedStream()} then returns)
   * @param stream what answers for the HDFS methods
   */
  public <R extends InputStream & Seekable & PositionedReadable> CurtailDataInputStream(
      DFSInputStream opened, R reading, HdfsInput stream) {
    super(opened);
    this.in = reading;
    this.stream = stream;
  }

  @Override
  public InputStream getWrappedStream() {
    return in;
  }

  @Override
  public DatanodeInfo getCurrentDatanode() {
    return stream.getCurrentDatanode();
  }

  @Override
  public ExtendedBlock getCurrentBlock() {
    return stream.getCurrentBlock();
  }

  @Override
  public List<LocatedBlock> getAllBlocks() throws IOException {
    return stream.getAllBlocks();
  }

  @Override
  public long getVisibleLength() {
    return stream.getVisibleLength();
  }

  @Override
  public ReadStatistics getReadStatistics() {
    return stream.getReadStatistics();
  }

  @Override
  public void clearReadStatistics() {
    stream.clearReadStatistics();
  }
}
