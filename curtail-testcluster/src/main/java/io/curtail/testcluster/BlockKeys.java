package io.curtail.testcluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.block.BlockKey;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/**
 * A cluster's block keys, aged at will: what a long-lived client meets hours into a job (expired
 * block tokens, a data encryption key made from a key the DataNodes forgot), brought on at once.
 * The cluster must have been built with {@code dfs.block.access.token.enable=true}.
 */
final class BlockKeys {
  private BlockKeys() {}

  /** Makes the block tokens the NameNode issues from now on expire after {@code lifetimeMs}. */
  static void tokenLifetime(MiniDFSCluster cluster, long lifetimeMs) {
    cluster.getNamesystem().getBlockManager().getBlockTokenSecretManager()
        .setTokenLifetime(lifetimeMs);
  }

  /**
   * Makes the NameNode roll its block keys and every DataNode forget the key that was current
   * until now; returns that key's ID.
   */
  static int rollForgettingCurrent(MiniDFSCluster cluster) throws IOException {
    BlockTokenSecretManager nn =
        cluster.getNamesystem().getBlockManager().getBlockTokenSecretManager();
    int old = nn.getCurrentKey().getKeyId();
    nn.updateKeys(Long.MAX_VALUE); // any time past the update interval rolls them now
    ExportedBlockKeys all = nn.exportKeys();
    List<BlockKey> kept = new ArrayList<>();
    for (BlockKey k : all.getAllKeys()) {
      if (k.getKeyId() != old) {
        kept.add(k);
      }
    }
    ExportedBlockKeys withoutOld = new ExportedBlockKeys(true, all.getKeyUpdateInterval(),
        all.getTokenLifetime(), all.getCurrentKey(), kept.toArray(new BlockKey[0]));
    String pool = cluster.getNamesystem().getBlockPoolId();
    for (DataNode dn : cluster.getDataNodes()) {
      dn.getBlockPoolTokenSecretManager().get(pool).clearAllKeysForTesting();
      dn.getBlockPoolTokenSecretManager().addKeys(pool, withoutOld);
    }
    return old;
  }
}
