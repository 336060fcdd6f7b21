package io.curtail.client.track;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The links between DataNodes that the pipelines of a JVM recently found slow, and whose a slow
 * link's time is: the JVM-wide vote that tells a DataNode whose every link is slow (a slow NIC,
 * disk or CPU: the common end) from one slow link and from a healthy neighbour of a slow
 * DataNode. Network-fault localisers blame by the same kind of vote across flows (007, NSDI '18;
 * NetBouncer, NSDI '19).
 *
 * <p>The rule ({@link #whose}), for a slow link A→B: a receiver whose own service is slow too
 * (its disk, its CPU) holds the packets back itself, and the link's slowness is its
 * back-pressure: B's. Otherwise the end that has slow links to more other DataNodes is the
 * common end: B when every link into it is slow, A when every link out of it is (a NIC slow
 * sending, what a shaped interface does). With no vote either way (one slow link, or the first
 * pipeline to meet a fault), the link's own: neither end is known to be slow, and a pipeline
 * leaves the link without blaming either. Whether a link or a DataNode is slow is not decided
 * here: the caller judges both by the one rule of slowness and reports links ({@link #slow},
 * {@link #fast}).
 *
 * <p>Only current knowledge votes: a link not found slow again within the memory is forgotten,
 * on every call, and one found fast at once; at most {@code maxLinks} are kept (the most
 * recent). Times are passed in. Thread-safe: callers take the lock once per judgement of a
 * pipeline, not per ack.
 */
public final class SlowLinks {
  private final long memoryNanos;
  private final int maxLinks;
  /** When each link was last found slow, least recent first. */
  private final Map<Link, Long> lastSlow = new LinkedHashMap<>();

  /**
   * @param memoryNanos how long a link stays slow unless found slow again
   * @param maxLinks at most this many slow links are kept
   */
  public SlowLinks(long memoryNanos, int maxLinks) {
    if (memoryNanos <= 0 || maxLinks < 1) {
      throw new IllegalArgumentException("need memoryNanos > 0 and maxLinks >= 1; got "
          + memoryNanos + ", " + maxLinks);
    }
    this.memoryNanos = memoryNanos;
    this.maxLinks = maxLinks;
  }

  /** Whose a slow link's time is. */
  public enum Whose {
    /** The sender's: the common end of slow links out of it. */
    SENDER,
    /** The receiver's: slow itself, or the common end of slow links into it. */
    RECEIVER,
    /** The link's own: neither end is known to be slow. */
    LINK
  }

  /** The link from {@code from} to {@code to} was found slow at {@code now}. */
  public synchronized void slow(NodeId from, NodeId to, long now) {
    forgetBefore(now - memoryNanos);
    Link link = new Link(from, to);
    lastSlow.remove(link);
    lastSlow.put(link, now);
    while (lastSlow.size() > maxLinks) {
      lastSlow.remove(lastSlow.keySet().iterator().next());
    }
  }

  /** Whether the link from {@code from} to {@code to} was found slow within the memory. */
  public synchronized boolean knownSlow(NodeId from, NodeId to, long now) {
    forgetBefore(now - memoryNanos);
    return lastSlow.containsKey(new Link(from, to));
  }

  /** The link from {@code from} to {@code to} was found not slow: it is forgotten. */
  public synchronized void fast(NodeId from, NodeId to) {
    lastSlow.remove(new Link(from, to));
  }

  /**
   * Whose the time of the slow link from {@code from} to {@code to} is (see above), given whether
   * the receiver's own service is slow.
   */
  public synchronized Whose whose(NodeId from, NodeId to, boolean receiverSlow, long now) {
    if (receiverSlow) {
      return Whose.RECEIVER;
    }
    forgetBefore(now - memoryNanos);
    int sender = partners(from, to);
    int receiver = partners(to, from);
    return sender > receiver ? Whose.SENDER : receiver > sender ? Whose.RECEIVER : Whose.LINK;
  }

  /** The DataNodes other than {@code except} that {@code node} has a slow link with. */
  private int partners(NodeId node, NodeId except) {
    int n = 0;
    // Few links are slow at once: a scan, counting each partner once even if both ways are slow.
    for (Link l : lastSlow.keySet()) {
      NodeId other = l.from.equals(node) ? l.to : l.to.equals(node) ? l.from : null;
      if (other != null && !other.equals(except)
          && !(l.to.equals(node) && lastSlow.containsKey(new Link(node, other)))) {
        n++;
      }
    }
    return n;
  }

  private void forgetBefore(long oldest) {
    for (Iterator<Long> it = lastSlow.values().iterator(); it.hasNext(); ) {
      if (it.next() - oldest < 0) {
        it.remove();
      }
    }
  }

  /** Slow links known now, for logs and tests. */
  @Override
  public synchronized String toString() {
    return "SlowLinks" + lastSlow.keySet();
  }

  private static final class Link {
    final NodeId from;
    final NodeId to;

    Link(NodeId from, NodeId to) {
      this.from = Objects.requireNonNull(from);
      this.to = Objects.requireNonNull(to);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Link && ((Link) o).from.equals(from) && ((Link) o).to.equals(to);
    }

    @Override
    public int hashCode() {
      return from.hashCode() * 31 + to.hashCode();
    }

    @Override
    public String toString() {
      return from + "->" + to;
    }
  }
}
