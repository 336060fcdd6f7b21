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
 * healthy one serves many), so a replica is judged against the block's <em>typical</em> replica:
 * the median of their counts (the upper one of an even number), itself included.
 *
 * <p>Not against the least loaded: a DataNode that readers avoid shows few transfers because it
 * is avoided, so beside it every healthy replica would look loaded, and a client that trusted the
 * count before its own packets would be sent to the very DataNode the others left. The median
 * is never one outlier, low or high; with two replicas it is the larger, so the rule then marks
 * nothing: two counts cannot tell a loaded DataNode from an avoided one.
 *
 * <p>The rule: a replica is <em>loaded</em> when its DataNode's reported transfers are at least
 * {@code factor} times the typical replica's and at least {@code margin} more, so that 3 against 1
 * (an idle DataNode counts its own listener thread) is not "loaded"; reports older than
 * {@code staleMillis} (the DataNode missed heartbeats; the NameNode itself calls a DataNode stale
 * after 30 s) or absent (time 0) are ignored, neither loaded nor counted in the typical one.
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
 * ({@code dfs.namenode.read.considerLoad}): a loaded replica is only read after the others, with
 * the NameNode's order kept within each group (see {@link ReplicaOrder}), so a NameNode that
 * already sorted by load sees its order unchanged; and before any the JVM measured slow, as a
 * heartbeat's count is a proxy and the client's own packets are not. Pure, allocation-free.
 */
public final class ReportedLoad {
  private final double factor;
  private final int margin;
  private final long staleMillis;

  /**
   * @param factor how many times the typical replica's transfers count as loaded (> 1)
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
      if (fresh(reportedAtMillis[i], nowMillis)
          && loaded(transfers[i], typical(i, transfers, reportedAtMillis, onClientHost,
              nowMillis))) {
        loaded[i] = true;
        marked++;
      }
    }
    return marked;
  }

  /**
   * The typical transfers replica {@code i} is compared with: the upper median over the fresh
   * replicas it may be compared with (itself among them; only those on the client's host if it
   * is). Selection by counting, as a block has a handful of replicas: no sort, no allocation.
   */
  private int typical(int i, int[] transfers, long[] reportedAtMillis, boolean[] onClientHost,
      long nowMillis) {
    int n = transfers.length;
    int compared = 0;
    for (int j = 0; j < n; j++) {
      compared += comparable(i, j, reportedAtMillis, onClientHost, nowMillis) ? 1 : 0;
    }
    int rank = compared / 2; // 0-based from the least: the middle, or the upper of two middles
    for (int j = 0; j < n; j++) {
      if (!comparable(i, j, reportedAtMillis, onClientHost, nowMillis)) {
        continue;
      }
      int below = 0;
      int notAbove = 0;
      for (int k = 0; k < n; k++) {
        if (comparable(i, k, reportedAtMillis, onClientHost, nowMillis)) {
          below += transfers[k] < transfers[j] ? 1 : 0;
          notAbove += transfers[k] <= transfers[j] ? 1 : 0;
        }
      }
      if (below <= rank && rank < notAbove) {
        return Math.max(0, transfers[j]);
      }
    }
    return Math.max(0, transfers[i]); // unreachable: i itself is comparable
  }

  /** Whether replica {@code j}'s report is one replica {@code i} is compared with. */
  private boolean comparable(int i, int j, long[] reportedAtMillis, boolean[] onClientHost,
      long nowMillis) {
    return fresh(reportedAtMillis[j], nowMillis) && (onClientHost[j] || !onClientHost[i]);
  }

  /** Whether {@code transfers} is loaded beside the block's typical replica's. */
  boolean loaded(int transfers, int typical) {
    return transfers >= factor * typical && (long) transfers - typical >= margin;
  }

  /** Whether a report made at {@code reportedAtMillis} is recent enough to act on. */
  boolean fresh(long reportedAtMillis, long nowMillis) {
    return reportedAtMillis > 0 && nowMillis - reportedAtMillis <= staleMillis;
  }
}
