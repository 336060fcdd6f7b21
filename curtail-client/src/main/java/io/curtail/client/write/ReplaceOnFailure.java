package io.curtail.client.write;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys.BlockWrite;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.datatransfer.ReplaceDatanodeOnFailure;

/**
 * What a stock writer promises when a pipeline loses a DataNode, under the client's
 * {@code dfs.client.block.write.replace-datanode-on-failure.*} settings, so that Curtail's writer
 * keeps the same promises. Curtail tries to restore a file's replication after every failure,
 * policy or not; these rules only decide when a write must fail instead of going on short, and
 * when a new block may go on without a DataNode that failed its setup:
 *
 * <ul>
 *   <li>{@code policy} (with {@code enable}) says when a replacement is <em>required</em>: under
 *       {@code DEFAULT}, for replication 3 or more, when half the replicas or more are gone or
 *       the block is appended to or hflushed. A required replacement that cannot be had fails
 *       the write, unless {@code best-effort}, or
 *   <li>{@code min-replication} (0, the default, for never) DataNodes or more remain. The same
 *       number lets a new block whose pipeline setup lost a DataNode be set up again on the rest
 *       (Hadoop 3.4 clients; without it, the block is given back and another asked for).
 * </ul>
 *
 * Read once per file system; immutable.
 */
final class ReplaceOnFailure {
  private final ReplaceDatanodeOnFailure policy;
  private final int minReplication;

  ReplaceOnFailure(ReplaceDatanodeOnFailure policy, int minReplication) {
    this.policy = policy;
    this.minReplication = minReplication;
  }

  /** The rules {@code conf} sets, as a stock client reads them. */
  static ReplaceOnFailure from(Configuration conf) {
    return new ReplaceOnFailure(ReplaceDatanodeOnFailure.get(conf),
        conf.getInt(BlockWrite.ReplaceDatanodeOnFailure.MIN_REPLICATION,
            BlockWrite.ReplaceDatanodeOnFailure.MIN_REPLICATION_DEFAULT));
  }

  /** Whether a new block's setup that lost a DataNode goes on with {@code survivors}. */
  boolean createsWith(int survivors) {
    return minReplication > 0 && survivors >= minReplication;
  }

  /**
   * Whether a pipeline of {@code nodes} for a file of {@code replication} must get a DataNode
   * more before writing on.
   */
  boolean required(short replication, DatanodeInfo[] nodes, boolean append, boolean hflushed) {
    return policy.satisfy(replication, nodes, append, hflushed);
  }

  /** Whether a write goes on with {@code nodes} DataNodes when a required one could not be had. */
  boolean goesOnWith(int nodes) {
    return policy.isBestEffort() || (minReplication > 0 && nodes >= minReplication);
  }

  /**
   * The failure of a write whose required replacement could not be had: a plain
   * {@link IOException}, as a stock writer's, naming the pipeline and the setting to change.
   */
  IOException noReplacement(String src, Pipeline.Targets current, Pipeline.Targets original) {
    return new IOException("Failed to replace a bad datanode on the existing pipeline of " + src
        + ": no good DataNode left to try (pipeline " + Arrays.toString(current.nodes)
        + ", was " + Arrays.toString(original.nodes) + "). The replace-datanode-on-failure"
        + " policy is " + policy + "; a client may change it with '"
        + BlockWrite.ReplaceDatanodeOnFailure.POLICY_KEY + "', or go on short with '"
        + BlockWrite.ReplaceDatanodeOnFailure.BEST_EFFORT_KEY + "' or '"
        + BlockWrite.ReplaceDatanodeOnFailure.MIN_REPLICATION + "'");
  }
}
