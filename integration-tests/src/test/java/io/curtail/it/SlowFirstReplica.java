package io.curtail.it;

import io.curtail.testcluster.FaultyCluster;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * Opens a file so that its first block lists a chosen DataNode first. The NameNode shuffles
 * replicas at the same distance (every DataNode here is on this host), and a reader with no
 * knowledge of the DataNodes reads them in that order: a test that wants a slow DataNode to be
 * the one a read starts on, so that a hedge must overtake it, opens until it is.
 */
final class SlowFirstReplica {
  private static final int MAX_OPENS = 200;

  private SlowFirstReplica() {
  }

  /**
   * {@code fs.open(p)}, reopened until the stream's first block lists DataNode {@code dn} of
   * {@code cluster} first.
   *
   * @throws AssertionError if {@value #MAX_OPENS} opens never did, naming what they listed
   */
  static FSDataInputStream open(FileSystem fs, Path p, FaultyCluster cluster, int dn)
      throws IOException {
    int port = cluster.address(dn).getPort();
    String last = "";
    for (int i = 0; i < MAX_OPENS; i++) {
      FSDataInputStream in = fs.open(p);
      List<LocatedBlock> blocks = ((HdfsDataInputStream) in).getAllBlocks();
      DatanodeInfo[] order = blocks.get(0).getLocations();
      if (order[0].getXferPort() == port) {
        return in;
      }
      last = java.util.Arrays.toString(order);
      in.close();
    }
    throw new AssertionError(MAX_OPENS + " opens of " + p + " never listed dn" + dn
        + " first; the last listed " + last);
  }
}
