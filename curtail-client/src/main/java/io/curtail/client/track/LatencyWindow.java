package io.curtail.client.track;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The most recent latency samples of one DataNode for one kind of operation, in nanoseconds.
 *
 * <p>Concurrency contract: {@link #record} is wait-free and allocates nothing, because it runs
 * once per packet on every stream's data path. Any number of threads may record and read at once.
 * A reader sees the latest samples, except that a slot being overwritten while it copies may show
 * either its old or its new value: statistics over a window are estimates by nature, and this
 * costs them nothing measurable while keeping writers free of locks.
 *
 * <p>The window keeps the last {@link #CAPACITY} samples (or fewer, where its user only ever asks
 * for a few); queries name how many of the most recent ones they consider (the
 * {@code curtail.*.window.packets} settings), so streams configured with different windows can
 * share one tracker.
 */
public final class LatencyWindow {
  /** Samples kept by default; the largest window a query may ask for. */
  public static final int CAPACITY = 512;

  private final int capacity;
  private final int mask;
  private final AtomicLongArray samples;
  private final AtomicLong recorded = new AtomicLong();

  /** A window of {@link #CAPACITY} samples. */
  public LatencyWindow() {
    this(CAPACITY);
  }

  /** A window of {@code capacity} samples: a power of two, so a slot is a mask, at most CAPACITY. */
  public LatencyWindow(int capacity) {
    if (capacity < 1 || capacity > CAPACITY || Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two in [1, " + CAPACITY
          + "], was " + capacity);
    }
    this.capacity = capacity;
    this.mask = capacity - 1;
    this.samples = new AtomicLongArray(capacity);
  }

  /** Records one sample; negative latencies (a clock step) count as zero. */
  public void record(long nanos) {
    long slot = recorded.getAndIncrement();
    samples.lazySet((int) (slot & mask), Math.max(0, nanos));
  }

  /** Samples recorded since creation, including those that have left the window. */
  public long totalRecorded() {
    return recorded.get();
  }

  /** How many samples a query over the last {@code window} would see. */
  public int available(int window) {
    return (int) Math.min(Math.min(recorded.get(), capacity), checkWindow(window));
  }

  /**
   * The last sample recorded, or -1 if none was; while another thread records one, possibly the
   * sample its slot held before (as {@link #copyLast} may mix them).
   */
  public long last() {
    long end = recorded.get();
    return end == 0 ? -1 : samples.get((int) ((end - 1) & mask));
  }

  /**
   * Copies up to the last {@code window} samples into {@code dst} from {@code offset}, most recent
   * first, and returns how many were copied. Allocates nothing, so a caller can pool samples of
   * several nodes in one scratch array.
   */
  public int copyLast(int window, long[] dst, int offset) {
    long end = recorded.get();
    int n = (int) Math.min(Math.min(end, capacity), checkWindow(window));
    if (offset < 0 || offset + n > dst.length) {
      throw new IllegalArgumentException("scratch of " + dst.length + " cannot take " + n
          + " samples at offset " + offset);
    }
    for (int i = 0; i < n; i++) {
      // A volatile read (Java 8 has no plain one): on x86 and ARM the same load, only not
      // reordered; the copy may still mix old and new samples, as the contract says.
      dst[offset + i] = samples.get((int) ((end - 1 - i) & mask));
    }
    return n;
  }

  /**
   * The statistics of the last {@code window} samples: their count, the {@code percentile} (nearest
   * rank) and the mean. {@code scratch} must hold {@code window} longs; it is overwritten.
   */
  public LatencyStats stats(int window, double percentile, long[] scratch) {
    int n = copyLast(window, scratch, 0);
    return LatencyStats.of(scratch, n, percentile);
  }

  private static int checkWindow(int window) {
    if (window < 1 || window > CAPACITY) {
      throw new IllegalArgumentException("window must be in [1, " + CAPACITY + "], was " + window);
    }
    return window;
  }

  @Override
  public String toString() {
    long[] copy = new long[capacity];
    int n = copyLast(capacity, copy, 0);
    return "LatencyWindow" + Arrays.toString(Arrays.copyOf(copy, Math.min(n, 8))) + (n > 8 ? "…" : "");
  }
}
