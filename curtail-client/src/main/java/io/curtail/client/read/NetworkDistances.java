package io.curtail.client.read;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.NetUtils;

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
  private final Map<String, Boolean> onThisHost = new ConcurrentHashMap<>();

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

  /**
   * Whether {@code dataNode} runs on this host: one of this host's own addresses, asked once
   * per address (no name lookup: the NameNode gives a literal IP). Needs no client, so a read's
   * plan can ask before its first connection.
   */
  boolean onThisHost(DatanodeInfo dataNode) {
    String ip = dataNode.getIpAddr();
    Boolean local = onThisHost.get(ip);
    if (local == null) {
      try {
        local = NetUtils.isLocalAddress(InetAddress.getByName(ip));
      } catch (UnknownHostException e) {
        local = false; // not a literal address we can place: counted as elsewhere
      }
      if (onThisHost.size() < MAX_NODES) {
        onThisHost.put(ip, local);
      }
    }
    return local;
  }
}
