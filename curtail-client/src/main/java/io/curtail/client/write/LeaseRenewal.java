package io.curtail.client.write;

import io.curtail.client.compat.HadoopApi;
import io.curtail.client.runtime.Periodic;
import io.curtail.client.runtime.Scheduler;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews a client's lease while it has files open for writing, as stock's {@code LeaseRenewer}
 * does: a file whose lease is older than the NameNode's soft limit (60 s) can be taken by another
 * client. Its thread ticks only while a file is open ({@link #hold}), so an idle client wakes
 * none. Thread-safe.
 */
final class LeaseRenewal {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewal.class);
  /** How often a lease is renewed, at most: half the NameNode's soft limit, as stock's. */
  static final long MAX_PERIOD_MS = 30_000;

  private final ClientProtocol namenode;
  private final String clientName;
  private final long periodMs;
  private final Periodic renewal;

  /** @param rpcTimeoutMs the client's NameNode RPC timeout, which bounds the period */
  LeaseRenewal(ClientProtocol namenode, String clientName, long rpcTimeoutMs,
      Scheduler scheduler) {
    this.namenode = namenode;
    this.clientName = clientName;
    this.periodMs = periodMs(rpcTimeoutMs);
    this.renewal = scheduler.every(TimeUnit.MILLISECONDS.toNanos(periodMs), this::renew);
  }

  /**
   * The renewal period of a client whose NameNode RPCs time out after {@code rpcTimeoutMs}
   * ({@code ipc.client.rpc-timeout.ms}; 0, never): {@link #MAX_PERIOD_MS}, or half the timeout
   * if that is shorter, as stock's renewer has it, so that a renewal that timed out is retried
   * well within the soft limit; never under a second, stock's renewer's own tick.
   */
  static long periodMs(long rpcTimeoutMs) {
    return rpcTimeoutMs > 0 ? Math.max(1000, Math.min(MAX_PERIOD_MS, rpcTimeoutMs / 2))
        : MAX_PERIOD_MS;
  }

  /** A file was opened for writing: renew until as many {@link #release}s. */
  void hold() {
    renewal.hold();
  }

  /** A file open for writing was closed. */
  void release() {
    renewal.release();
  }

  private void renew() {
    try {
      HadoopApi.renewLease(namenode, clientName);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not renew the lease of {}; retrying in {} s", clientName,
          periodMs / 1000.0, e);
    }
  }
}
