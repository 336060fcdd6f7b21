package io.curtail.client.read;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.ClientDatanodeProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.ipc.RPC;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The length a reader may read of a file whose last block is still being written: the least any
 * replica of that block shows, where stock asks one replica and takes its answer.
 *
 * <p>Why the least. A DataNode shows readers a packet once the DataNodes after it in the
 * pipeline acknowledged it, so while packets are on their way the last DataNode shows more than the
 * first. Stock's answer therefore depends on which replica an open happens to ask, and two opens in
 * a row can see the length go back. That gap outlives a pipeline cut: the DataNode cut out may have
 * shown more than any survivor until the resent packets are acknowledged, and Curtail cuts
 * pipelines whenever it replaces a slow DataNode. The least over the listed replicas never goes
 * back: each replica's length only grows, a survivor keeps its own, a newcomer starts from a
 * survivor's (taken once the survivors stopped acknowledging, so it holds at least what any of them
 * shows), and a DataNode cut out leaves the list. It is never below what was hflushed, which every
 * listed replica acknowledged; and every replica can serve every byte up to it, so a hedge or a
 * failover never meets a replica that ends too soon.
 *
 * <p>The price: an open of a file being written asks every replica (three small RPCs where stock
 * makes one); opens of finished files ask none. A replica that does not answer is left out, as
 * stock leaves out all but the first that answers: only then can the length still go back.
 */
final class VisibleLength {
  private static final Logger LOG = LoggerFactory.getLogger(VisibleLength.class);
  /**
   * {@code DFSInputStream.getLocatedBlocks()}: whether the last block is still being written is
   * public nowhere else, and asking the NameNode again would cost every open an RPC. Protected
   * since Hadoop 2; where it is missing, the stream keeps stock's length.
   */
  private static final Method LOCATED_BLOCKS = locatedBlocksMethod();

  private VisibleLength() {
  }

  private static Method locatedBlocksMethod() {
    try {
      Method m = DFSInputStream.class.getDeclaredMethod("getLocatedBlocks");
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Cannot tell files being written from finished ones ({}); their visible length"
          + " is stock's, asked of one replica", e.toString());
      return null;
    }
  }

  /**
   * Whether the file of {@code blocks} is being written and its last block with it: the NameNode
   * knows no length for that block, so only its replicas can be asked about it (stock's stream
   * never asks the NameNode for it again either). False where that cannot be told.
   */
  static boolean lastBlockBeingWritten(LocatedBlocks blocks) {
    return blocks != null && !blocks.isLastBlockComplete() && blocks.getLastLocatedBlock() != null;
  }

  /**
   * The length of {@code file} that {@code metadata}, its stock stream just opened, may read;
   * {@code blocks} are its {@link #locatedBlocks}, {@code conf} the file system's configuration,
   * for the RPCs to DataNodes.
   */
  static long of(DFSClient client, Configuration conf, DFSInputStream metadata,
      LocatedBlocks blocks, String file) throws IOException {
    long stock = metadata.getFileLength();
    if (!lastBlockBeingWritten(blocks)) {
      return stock;
    }
    LocatedBlock last = blocks.getLastLocatedBlock();
    long answered = last.getBlock().getNumBytes(); // stock's open set it to its one answer
    long least = answered;
    for (DatanodeInfo dn : last.getLocations()) {
      least = Math.min(least, replicaLength(client, conf, last, dn, file, least));
    }
    return stock - (answered - least);
  }

  /** Whether the file of {@code blocks} is being written (false where that cannot be told). */
  static boolean beingWritten(LocatedBlocks blocks) {
    return blocks != null && blocks.isUnderConstruction();
  }

  /** What {@code metadata}'s open learnt of its file's blocks; null where that cannot be had. */
  static LocatedBlocks locatedBlocks(DFSInputStream metadata) {
    if (LOCATED_BLOCKS == null) {
      return null;
    }
    try {
      return (LocatedBlocks) LOCATED_BLOCKS.invoke(metadata);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("DFSInputStream.getLocatedBlocks failed", e);
    }
  }

  /** The visible length {@code dn} shows of {@code block}; {@code otherwise} if it cannot say. */
  private static long replicaLength(DFSClient client, Configuration conf, LocatedBlock block,
      DatanodeInfo dn, String file, long otherwise) throws InterruptedIOException {
    ClientDatanodeProtocol proxy = null;
    try {
      proxy = DFSUtilClient.createClientDatanodeProtocolProxy(dn, conf,
          client.getConf().getSocketTimeout(), client.getConf().isConnectToDnViaHostname(),
          block);
      long n = proxy.getReplicaVisibleLength(block.getBlock());
      return n >= 0 ? n : otherwise;
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      LOG.debug("No visible length from a replica file={} block={} datanode={}", file,
          block.getBlock(), dn, e);
      return otherwise;
    } finally {
      if (proxy != null) {
        RPC.stopProxy(proxy);
      }
    }
  }
}
