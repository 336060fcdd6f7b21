package io.curtail.client.read;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * The network distance from a client to each DataNode it reads from, as stock's block readers
 * count it for the file system's statistics (0 on the same host, 2 in the same rack, …), worked
 * out once per DataNode: Hadoop's answer allocates a node and its path each time, which a small
 * positional read would pay on every read. Thread-safe.
 */
final class NetworkDistances {
  /** DataNodes remembered, at most: a bound on memory, far above any cluster a client reads. */
  private static final int MAX_NODES = 65_536;
  private final Map<String, Integer> byAddress = new ConcurrentHashMap<>();

  /** {@code dataNode}'s distance from {@code client}; far if it cannot be worked out. */
  int of(DFSClient client, DatanodeInfo dataNode) {
    Integer d = byAddress.get(dataNode.getXferAddr());
    if (d == null) {
      try {
        d = client.getClientContext().getNetworkDistance(dataNode);
      } catch (IOException e) {
        d = Integer.MAX_VALUE; // unresolvable: counted as far, never failing a read
      }
      if (byAddress.size() < MAX_NODES) {
        byAddress.put(dataNode.getXferAddr(), d);
      }
    }
    return d;
  }
}
