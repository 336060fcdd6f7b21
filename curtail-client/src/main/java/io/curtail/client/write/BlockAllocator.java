package io.curtail.client.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the NameNode for a file's blocks, keeping DataNodes that failed the file and those the
 * JVM avoids (judged slow, or busy) out of them, and gives back a block that was never written.
 * The streamer thread's; it holds no state between calls.
 */
final class BlockAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(BlockAllocator.class);

  private final WriteContext ctx;
  private final DFSClient client;
  private final String src;
  private final long fileId;
  private final int replication;
  private final String[] favoredNodes;
  private final EnumSet<AddBlockFlag> flags = EnumSet.noneOf(AddBlockFlag.class);

  BlockAllocator(WriteContext ctx, String src, long fileId, int replication,
      String[] favoredNodes, EnumSet<CreateFlag> createFlags) {
    this.ctx = ctx;
    this.client = ctx.client;
    this.src = src;
    this.fileId = fileId;
    this.replication = replication;
    this.favoredNodes = favoredNodes;
    if (createFlags.contains(CreateFlag.NO_LOCAL_WRITE)) {
      flags.add(AddBlockFlag.NO_LOCAL_WRITE);
    }
    if (createFlags.contains(CreateFlag.IGNORE_CLIENT_LOCALITY)) {
      flags.add(AddBlockFlag.IGNORE_CLIENT_LOCALITY);
    }
    if (createFlags.contains(CreateFlag.NO_LOCAL_RACK)) {
      flags.add(AddBlockFlag.NO_LOCAL_RACK);
    }
  }

  /**
   * The block after {@code previous}, with {@code failed} and the DataNodes the JVM avoids
   * excluded; retried while the NameNode waits for the previous block's replicas, as stock
   * clients do. If the NameNode cannot give a full pipeline without the avoided ones, the block
   * is asked for again with only {@code failed} excluded: replication comes before avoiding a
   * slow or busy node, but never brings back one that failed this file recently (a DataNode
   * just killed is still live to the NameNode for a while; stock excludes it too, even at the
   * cost of a short pipeline, which the NameNode re-replicates, until its exclusion expires:
   * {@link FailedNodes}).
   */
  LocatedBlock allocate(ExtendedBlock previous, Collection<DatanodeInfo> failed)
      throws IOException {
    DatanodeInfo[] mustExclude = failed.toArray(new DatanodeInfo[0]);
    List<DatanodeInfo> excluded = new ArrayList<>(failed);
    for (DatanodeInfo avoid : ctx.avoided()) {
      if (!excluded.contains(avoid)) {
        excluded.add(avoid);
      }
    }
    if (excluded.size() == mustExclude.length) {
      return addBlock(previous, mustExclude);
    }
    LocatedBlock located;
    try {
      located = addBlock(previous, excluded.toArray(new DatanodeInfo[0]));
    } catch (RemoteException e) {
      if (!e.getClassName().equals(IOException.class.getName())) {
        throw e;
      }
      // A plain IOException is how the NameNode says it found no DataNode at all (in a small
      // cluster every one may have been judged slow once): ask again avoiding none.
      LOG.info("No replica placed file={} excluded={} reason={}; asking again excluding only"
          + " failed DataNodes {}", src, excluded, e.getMessage(), failed);
      return addBlock(previous, mustExclude);
    }
    if (located.getLocations().length >= replication) {
      return located;
    }
    LOG.info("Short pipeline file={} block={} replicas={} excluded={}; asking again excluding"
        + " only failed DataNodes {}", src, located.getBlock(), located.getLocations().length,
        excluded, failed);
    abandon(located.getBlock());
    return addBlock(previous, mustExclude);
  }

  private LocatedBlock addBlock(ExtendedBlock previous, DatanodeInfo[] excluded)
      throws IOException {
    int retries = client.getConf().getNumBlockWriteLocateFollowingRetry();
    long sleepMs = client.getConf().getBlockWriteLocateFollowingInitialDelayMs();
    long maxSleepMs = client.getConf().getBlockWriteLocateFollowingMaxDelayMs();
    for (int attempt = 0; ; attempt++) {
      try {
        return ctx.namenode.addBlock(src, client.getClientName(), previous, excluded,
            fileId, favoredNodes, flags);
      } catch (RemoteException e) {
        IOException unwrapped = e.unwrapRemoteException(NotReplicatedYetException.class);
        if (!(unwrapped instanceof NotReplicatedYetException) || attempt >= retries) {
          throw WriteContext.unwrap(e);
        }
        LOG.debug("NameNode waits for replicas file={} previous={}", src, previous);
        WriteContext.sleep(sleepMs);
        sleepMs = Math.min(sleepMs * 2, maxSleepMs);
      }
    }
  }

  /** Gives back {@code block}, which holds no data. */
  void abandon(ExtendedBlock block) throws IOException {
    ctx.namenode.abandonBlock(block, fileId, src, client.getClientName());
  }
}
