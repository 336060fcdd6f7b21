package io.curtail.client.read;

import io.curtail.client.policy.AcquireRetry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.InvalidEncryptionKeyException;
import org.apache.hadoop.hdfs.security.token.block.InvalidBlockTokenException;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one block read goes on when a replica fails, by stock's rules ({@code DFSInputStream}'s):
 * a rejected block token is renewed once and an invalid encryption key cleared once, neither
 * counted as a failure; when every replica failed, the read waits and asks the NameNode again on
 * {@link AcquireRetry}'s schedule, and gives up with a {@link BlockMissingException}. Rounds are
 * counted since the read last delivered bytes, as stock counts them per read call.
 *
 * <p>Not thread-safe: the read's own thread uses it.
 */
final class ReadRetries {
  private static final Logger LOG = LoggerFactory.getLogger(ReadRetries.class);

  /** What to do after a replica failed. */
  enum Next {
    /** Fetch a new data encryption key and try the same replica again. */
    NEW_KEY,
    /** Fetch the block's locations (and so a new token) and start over from the first. */
    NEW_TOKEN,
    /** Drop the replica and try the next. */
    NEXT_REPLICA
  }

  private int failures;
  private boolean tokenRenewed;
  private boolean keyCleared;

  /** What to do after {@code e} from a replica. */
  Next after(IOException e) {
    if (e instanceof InvalidEncryptionKeyException && !keyCleared) {
      keyCleared = true; // the NameNode rolled its keys since the client fetched one
      return Next.NEW_KEY;
    }
    if ((e instanceof InvalidBlockTokenException || e instanceof InvalidToken) && !tokenRenewed) {
      tokenRenewed = true; // expired (a long-lived stream), or its key was rolled
      return Next.NEW_TOKEN;
    }
    return Next.NEXT_REPLICA;
  }

  /** The read delivered bytes: failures are counted afresh. */
  void delivered() {
    failures = 0;
  }

  /**
   * Every replica of {@code block} failed: waits before its locations are asked again, or gives
   * up.
   *
   * @throws BlockMissingException after {@code dfs.client.max.block.acquire.failures} rounds
   * @throws InterruptedIOException if interrupted while waiting
   */
  void awaitRefetch(DfsClientConf conf, String file, LocatedBlock block, long offset,
      DatanodeInfo[] replicas) throws IOException {
    AcquireRetry retry = new AcquireRetry(conf.getMaxBlockAcquireFailures(), conf.getTimeWindow());
    if (retry.givesUp(failures)) {
      // Stock's text and type, which applications and frameworks match on.
      throw new BlockMissingException(file, "Could not obtain block: " + block.getBlock()
          + " file=" + file + " at offset " + offset + ": every replica failed in "
          + (failures + 1) + " rounds, last " + Arrays.toString(replicas), block.getStartOffset());
    }
    long waitMs = retry.waitMs(failures, ThreadLocalRandom.current().nextDouble());
    LOG.warn("No replica could serve the read, asking the NameNode again file={} block={}"
        + " replicas={} round={} waitMs={}", file, block.getBlock(), Arrays.toString(replicas),
        failures + 1, waitMs);
    failures++;
    try {
      Thread.sleep(waitMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted waiting to read " + block.getBlock() + " of "
          + file + " again");
    }
  }
}
