package io.curtail.client.policy;

/**
 * Which of a block's replicas the NameNode reports as loaded: knowledge a client has before its
 * first packet, as every block's locations carry each DataNode's last heartbeat, with the
 * transfers (xceivers: reads and writes being served) it had open then (beyond the paper, which
 * learns only from the client's own packets).
 *
 * <p>Why transfers say anything: by Little's law a DataNode's open transfers are the rate reads
 * arrive times how long each takes, so under the same share of reads a slow DataNode (throttled,
 * a slow disk, slow to open) holds more of them open than its peers; and one that many readers
 * are queued on is slow to the next. A count says nothing about a DataNode alone (a busy but
 * healthy one serves many), so a replica is judged only against the block's least-loaded one.
 *
 * <p>The rule: a replica is <em>loaded</em> when its DataNode's reported transfers are at least
 * {@code factor} times those of the block's least-loaded replica and at least {@code margin} more,
 * so that 2 against 1 (an idle DataNode counts its own listener thread) is not "loaded"; reports
 * older than {@code staleMillis} (the DataNode missed heartbeats; the NameNode itself calls a
 * DataNode stale after 30 s) or absent (time 0) are ignored, neither loaded nor the baseline.
 * Times are the NameNode's wall clock against the client's: a client whose clock runs ahead by
 * more than {@code staleMillis} ignores every report (the rule is then off, never wrong), one
 * that runs behind takes reports from "the future" as fresh.
 *
 * <p>A replica on the client's own host is compared only with others on it: reading it costs no
 * network, and the DataNode next to a busy application's tasks naturally serves the most, so
 * load alone never sends such a read across the network (its packets still can, by the
 * measured rules of {@link ReplicaOrder}). Where every replica is on the client's host (a test
 * cluster), they are compared with each other as usual.
 *
 * <p>It composes with the NameNode's own load-aware read order
 * ({@code dfs.namenode.read.considerLoad}): a loaded replica is only <em>demoted</em>, read after
 * the others with the NameNode's order kept within each group (see {@link ReplicaOrder}), so a
 * NameNode that already sorted by load sees its order unchanged. Pure, allocation-free.
 */
public final class ReportedLoad {
  private final double factor;
  private final int margin;
  private final long staleMillis;

  /**
   * @param factor how many times the least-loaded replica's transfers count as loaded (> 1)
   * @param margin how many more transfers it must also have (>= 1)
   * @param staleMillis reports older than this are ignored (> 0)
   */
  public ReportedLoad(double factor, int margin, long staleMillis) {
    if (!(factor > 1) || Double.isInfinite(factor) || margin < 1 || staleMillis <= 0) {
      throw new IllegalArgumentException("need a finite factor > 1, margin >= 1 and"
          + " staleMillis > 0; got " + factor + ", " + margin + ", " + staleMillis);
    }
    this.factor = factor;
    this.margin = margin;
    this.staleMillis = staleMillis;
  }

  /**
   * Marks in {@code loaded} the replicas whose DataNode the NameNode reports as loaded.
   *
   * @param transfers each replica's reported transfer (xceiver) count
   * @param reportedAtMillis when each report was made (the NameNode's wall clock), 0 if unknown
   * @param onClientHost whether each replica's DataNode is on the client's host
   * @param nowMillis the client's wall clock now
   * @param loaded one flag per replica, set here for each loaded one and left as it is otherwise
   * @return how many replicas were marked
   */
  public int markLoaded(int[] transfers, long[] reportedAtMillis, boolean[] onClientHost,
      long nowMillis, boolean[] loaded) {
    int n = transfers.length;
    if (reportedAtMillis.length != n || onClientHost.length != n || loaded.length != n) {
      throw new IllegalArgumentException("need one report time, host flag and flag per"
          + " replica; got " + n + " transfer counts, " + reportedAtMillis.length + " times, "
          + onClientHost.length + " host flags, " + loaded.length + " flags");
    }
    int marked = 0;
    for (int i = 0; i < n; i++) {
      if (!fresh(reportedAtMillis[i], nowMillis)) {
        continue;
      }
      int least = Integer.MAX_VALUE; // the least-loaded fresh replica this one is compared with
      for (int j = 0; j < n; j++) {
        if (fresh(reportedAtMillis[j], nowMillis) && (onClientHost[j] || !onClientHost[i])) {
          least = Math.min(least, Math.max(0, transfers[j]));
        }
      }
      if (loaded(transfers[i], least)) {
        loaded[i] = true;
        marked++;
      }
    }
    return marked;
  }

  /** Whether {@code transfers} is loaded beside the block's least-loaded replica's. */
  boolean loaded(int transfers, int least) {
    return transfers >= factor * least && (long) transfers - least >= margin;
  }

  /** Whether a report made at {@code reportedAtMillis} is recent enough to act on. */
  boolean fresh(long reportedAtMillis, long nowMillis) {
    return reportedAtMillis > 0 && nowMillis - reportedAtMillis <= staleMillis;
  }
}
