package io.curtail.testcluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every fault injected on a cluster, with which DataNode (or the two ends of a link) and when: the
 * ground truth a benchmark labels a client's decisions against. A fault method of
 * {@link FaultyCluster} returns what {@link #on} makes of its undo, so a new kind of fault is
 * labelled by naming its DataNodes there. Thread-safe.
 */
public final class InjectedFaults {
  /** One fault: its DataNodes' transfer addresses, and when it was on (epoch milliseconds). */
  public static final class Entry {
    private final List<String> dataNodes;
    private final boolean sendsOnly;
    private final long fromMillis;
    private final long slowMillis;
    private final long healthyMillis;
    private volatile long toMillis = Long.MAX_VALUE;

    Entry(List<String> dataNodes, boolean sendsOnly, long fromMillis, long slowMillis,
        long healthyMillis) {
      this.dataNodes = Collections.unmodifiableList(new ArrayList<>(dataNodes));
      this.sendsOnly = sendsOnly;
      this.fromMillis = fromMillis;
      this.slowMillis = slowMillis;
      this.healthyMillis = healthyMillis;
    }

    /**
     * Whether this is a flapping schedule rather than a fault: the DataNode's other faults act
     * only in its slow spells, {@link #slowMillis} from {@link #fromMillis}, then
     * {@link #healthyMillis} at rest, again.
     */
    public boolean flapping() {
      return slowMillis > 0;
    }

    public long slowMillis() {
      return slowMillis;
    }

    public long healthyMillis() {
      return healthyMillis;
    }

    /**
     * Whether the fault slows only what its one DataNode sends (a slow NIC): then a pipeline it
     * ends is not slowed by it.
     */
    public boolean sendsOnly() {
      return sendsOnly;
    }

    /** One DataNode's transfer address, or a link's two (either end is to blame). */
    public List<String> dataNodes() {
      return dataNodes;
    }

    public long fromMillis() {
      return fromMillis;
    }

    /** When it was undone; {@link Long#MAX_VALUE} while it is on. */
    public long toMillis() {
      return toMillis;
    }
  }

  private final List<Entry> entries = Collections.synchronizedList(new ArrayList<>());

  /**
   * Notes a fault on {@code dataNodes} (transfer addresses) from now, and returns {@code undo}
   * as a fault that, closed, undoes it and notes when.
   */
  Fault on(Fault undo, String... dataNodes) {
    return on(undo, false, dataNodes);
  }

  /** {@link #on(Fault, String...)}, saying whether the fault slows only what it sends. */
  Fault on(Fault undo, boolean sendsOnly, String... dataNodes) {
    return noted(undo, new Entry(List.of(dataNodes), sendsOnly, System.currentTimeMillis(), 0, 0));
  }

  /**
   * Notes a flapping schedule on {@code dataNode} from now (see {@link Entry#flapping}), and
   * returns {@code undo} as a fault that, closed, undoes it and notes when.
   */
  Fault flapping(Fault undo, long slowMillis, long healthyMillis, String dataNode) {
    return noted(undo, new Entry(List.of(dataNode), false, System.currentTimeMillis(),
        slowMillis, healthyMillis));
  }

  private Fault noted(Fault undo, Entry e) {
    entries.add(e);
    return () -> {
      try {
        undo.close();
      } finally {
        if (e.toMillis == Long.MAX_VALUE) {
          e.toMillis = System.currentTimeMillis();
        }
      }
    };
  }

  /** Every fault noted so far, oldest first. */
  public List<Entry> all() {
    synchronized (entries) {
      return new ArrayList<>(entries);
    }
  }
}
