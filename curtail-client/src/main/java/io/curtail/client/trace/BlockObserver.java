package io.curtail.client.trace;

import java.util.List;

/**
 * What happened to one block read or written, told to whoever watches it: its per-block
 * statistics record, its OpenTelemetry span, both ({@link #both}) or neither ({@link #NONE}).
 * The reader and writer tell it once per event; each watcher keeps what it needs. Implementations
 * are thread-safe where hedges are told, from the client's watchdog and hedge threads.
 */
public interface BlockObserver {
  /** Nobody watches. */
  BlockObserver NONE = new BlockObserver() {
  };

  /** The DataNodes the block is read from in order, or its pipeline; replaces earlier ones. */
  default void dataNodes(List<String> addresses) {
  }

  /**
   * The reader put {@code dataNode}'s replica last, judging it slow or busy: a decision, which
   * the benchmark labels right or wrong.
   */
  default void demoted(String dataNode) {
  }

  /** A DataNode said it was busy while the block was read or written. */
  default void busy(String dataNode) {
  }

  /** A hedge to {@code to} began, {@code from} having overrun {@code thresholdNanos}. */
  default void hedgeTried(String from, String to, long offset, long thresholdNanos) {
  }

  /** The hedge to {@code to} delivered first. */
  default void hedgeWon(String to) {
  }

  /**
   * A DataNode of the pipeline was replaced: at {@code position}, {@code replaced} by {@code by}
   * (empty if not known), for {@code reason} ({@code slow} or {@code failed}) on {@code evidence}.
   */
  default void replaced(int position, String replaced, String by, String reason,
      String evidence) {
  }

  /**
   * What the writer knew of each DataNode of {@code pipeline} (in order) at {@code nowNanos}, with
   * {@code acked} bytes of the block acknowledged: each one's recent write percentile and its
   * count of samples. Told just before a slow replacement ({@link #replaced}), as the structured
   * part of its evidence, and once more before {@link #done}: the samples an offline rule (HDFS's
   * outlier rule, in the benchmark's blame tables) is judged on beside the client's decisions.
   */
  default void samples(List<String> pipeline, long[] percentileNanos, int[] counts, long acked,
      long nowNanos) {
  }

  /** A rebuild of the partial block on a replacement took {@code nanos}, after some aborts. */
  default void rebuilt(long nanos, int aborts) {
  }

  /** The block's writing failed for {@code reason}; {@link #done} follows. */
  default void failed(String reason) {
  }

  /** The block is done: {@code bytes} read or written, at {@code nowNanos}. */
  default void done(long bytes, long nowNanos) {
  }

  /** Tells {@code a} then {@code b}; either alone if the other is {@link #NONE}. */
  static BlockObserver both(BlockObserver a, BlockObserver b) {
    if (a == NONE) {
      return b;
    }
    if (b == NONE) {
      return a;
    }
    return new BlockObserver() {
      @Override
      public void dataNodes(List<String> addresses) {
        a.dataNodes(addresses);
        b.dataNodes(addresses);
      }

      @Override
      public void demoted(String dataNode) {
        a.demoted(dataNode);
        b.demoted(dataNode);
      }

      @Override
      public void busy(String dataNode) {
        a.busy(dataNode);
        b.busy(dataNode);
      }

      @Override
      public void hedgeTried(String from, String to, long offset, long thresholdNanos) {
        a.hedgeTried(from, to, offset, thresholdNanos);
        b.hedgeTried(from, to, offset, thresholdNanos);
      }

      @Override
      public void hedgeWon(String to) {
        a.hedgeWon(to);
        b.hedgeWon(to);
      }

      @Override
      public void replaced(int position, String replaced, String by, String reason,
          String evidence) {
        a.replaced(position, replaced, by, reason, evidence);
        b.replaced(position, replaced, by, reason, evidence);
      }

      @Override
      public void samples(List<String> pipeline, long[] percentileNanos, int[] counts,
          long acked, long nowNanos) {
        a.samples(pipeline, percentileNanos, counts, acked, nowNanos);
        b.samples(pipeline, percentileNanos, counts, acked, nowNanos);
      }

      @Override
      public void rebuilt(long nanos, int aborts) {
        a.rebuilt(nanos, aborts);
        b.rebuilt(nanos, aborts);
      }

      @Override
      public void failed(String reason) {
        a.failed(reason);
        b.failed(reason);
      }

      @Override
      public void done(long bytes, long nowNanos) {
        a.done(bytes, nowNanos);
        b.done(bytes, nowNanos);
      }
    };
  }
}
