package io.curtail.client.stream;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * What {@code HdfsDataInputStream} tells its callers about the stream under it, asked of a stream
 * that is not stock's {@code DFSInputStream} ({@link CurtailDataInputStream}). The names are
 * {@code DFSInputStream}'s, so a stream wrapping one passes each on as it is.
 */
public interface HdfsInput {
  /** The DataNode sequential reads come from now; null when none is connected. */
  DatanodeInfo getCurrentDatanode();

  /** The block holding the stream's position; null at the end of the file. */
  ExtendedBlock getCurrentBlock();

  /** The file's blocks as located when it was opened. */
  List<LocatedBlock> getAllBlocks() throws IOException;

  /** The bytes the stream may read, a last block being written included. */
  long getVisibleLength();

  /** A copy of what the stream has read so far, by kind of read. */
  ReadStatistics getReadStatistics();

  void clearReadStatistics();
}
