package io.curtail.client.stream;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;

/**
 * What {@code HdfsDataOutputStream} asks of the stream under it beyond an {@code OutputStream},
 * asked of a stream that is not stock's {@code DFSOutputStream} ({@link CurtailDataOutputStream}).
 */
public interface HdfsOutput {
  /** Syncs as {@code hsync()}, and also does what {@code flags} ask. */
  void hsync(EnumSet<SyncFlag> flags) throws IOException;

  /** The replicas the block being written has now: its pipeline's DataNodes. */
  int getCurrentBlockReplication() throws IOException;
}
