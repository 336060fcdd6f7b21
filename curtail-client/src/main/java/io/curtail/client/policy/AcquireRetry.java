package io.curtail.client.policy;

/**
 * When a read whose every replica failed asks the NameNode for the block's locations again, and
 * when it gives up: stock's schedule ({@code DFSInputStream}'s), so that a Curtail client is as
 * patient as a stock one with DataNodes that refuse reads for a while (every transfer thread
 * busy, {@code dfs.datanode.max.transfer.threads}, or restarting).
 *
 * <p>After the {@code n}-th round of failures (counted from 0) the reader waits the whole of the
 * previous rounds' windows, {@code window × n}, and then a random part of a window that grows with
 * each round, {@code window × (n + 1) × random}: with the default 3 s window, 0–3 s before the
 * first refetch, 3–9 s before the second, 6–15 s before the third. Readers that met a busy
 * DataNode together spread out instead of coming back at once. After
 * {@code dfs.client.max.block.acquire.failures} rounds (default 3) it gives up.
 *
 * <p>Pure: the random number is passed in.
 */
public final class AcquireRetry {
  private final int maxFailures;
  private final long windowMs;

  /**
   * @param maxFailures rounds of failures before giving up,
   *     {@code dfs.client.max.block.acquire.failures}
   * @param windowMs the base wait, {@code dfs.client.retry.window.base}
   */
  public AcquireRetry(int maxFailures, long windowMs) {
    if (maxFailures < 0 || windowMs < 0) {
      throw new IllegalArgumentException("dfs.client.max.block.acquire.failures and"
          + " dfs.client.retry.window.base must be >= 0, got " + maxFailures + " and "
          + windowMs);
    }
    this.maxFailures = maxFailures;
    this.windowMs = windowMs;
  }

  /** Whether a read that failed {@code failures} rounds already gives up now. */
  public boolean givesUp(int failures) {
    return failures >= maxFailures;
  }

  /**
   * How long to wait before refetching after round {@code failures} (from 0) failed.
   *
   * @param random uniform in [0, 1)
   */
  public long waitMs(int failures, double random) {
    return (long) (windowMs * failures + windowMs * (failures + 1) * random);
  }
}
