package io.curtail.client.policy;

import java.util.Arrays;

/**
 * Which DataNode of a write pipeline a packet's time belongs to, from the downstream times its
 * ack carries. Pure: times in, per-position samples out; one instance per pipeline, fed its acks
 * in order.
 *
 * <p>A DataNode's <em>downstream time</em> for a packet runs from just before it forwards the
 * packet to the next DataNode until it reads that DataNode's ack. A stock ack carries the first
 * DataNode's ({@code downstreamAckTimeNanos}); DataNodes running Curtail's plugin report their own
 * (see {@code AckReport}). Subtracted from the time the client read the ack, each gives the moment
 * the packet left that DataNode for the next, on the client's clock. Those moments cut the
 * pipeline into <em>stages</em>: from the client's send to the first DataNode's departure, from
 * there to the next known departure, and so on to the ack. Every stage is measured the same way,
 * the transfer, receive, checks, disk and the ack's way back of the DataNodes in it, so stages are
 * comparable wherever they sit. (The ack's relay through the DataNodes ahead adds to each
 * departure alike and cancels out, but for each stage's own hop.)
 *
 * <p>A writer keeps dozens of packets in flight, so a packet's time in a stage is mostly the time
 * it queued behind the writer's own earlier packets at the slowest DataNode; that says where the
 * bottleneck is, not how slow each DataNode is. So this records each stage's <em>service
 * times</em>, excluding the queueing, by the usual FIFO identity: service = departure −
 * max(arrival, previous departure). Where the previous packet's departure from a stage is not
 * known, the next known departure stands in for it: a later time, so the service is
 * underestimated, never blamed on anyone.
 *
 * <p>A stage of one DataNode is evidence about it. A stage of several (a DataNode without the
 * plugin in the middle, or reports off) gives only the slowest one's time, an upper bound for
 * each: it is recorded for all of them when it is no larger than the largest one-DataNode stage's
 * time of the same packet (so it blames none of them). When it is larger, it belongs to the one
 * DataNode of the stage the client does not already know to be fast (from what it saw of the
 * others elsewhere, see {@link #knownFast}); if there is no such single one, nobody in the stage
 * gets a sample.
 *
 * <p>A DataNode of report version 2 also says how long it was <em>blocked</em> forwarding the
 * packet: its socket write to the next DataNode. That time is the <em>link's</em>, either end (a
 * slow link, a slow NIC at either end, or a next DataNode slow to read): not the sender's service
 * time, and not the receiver's own either. So where it is known, a packet departs a DataNode when
 * its forward returned, the next DataNode's stage starts there, and a DataNode's service excludes
 * its previous forward's wait (which, counted as its own, made every upstream neighbour of a slow
 * DataNode look as slow as it). The link's time is reported apart, for the caller to judge and
 * vote on across pipelines, and given to the end the caller names ({@link #blameLink}); until it
 * names one, to nobody: a time given to the wrong end stays in that DataNode's window, where it
 * could have it replaced before the vote is in.
 *
 * <p>A DataNode that tells its links apart (the caller knows it from its report's version,
 * {@link #tellsLinks}, or it told one apart on this pipeline) but not on one packet (its ack was
 * read before the end of its forward was noted, say) leaves that link's time in the next
 * DataNode's stage: for that packet the stage is the link's and the next DataNode's together, an
 * upper bound for the DataNode, recorded only where it blames nobody (no larger than the largest
 * exact sample of the packet; a stage of several DataNodes holding it likewise goes to nobody
 * when larger). Otherwise a slow NIC's wait on one packet in ten would land, whole,
 * in its healthy neighbour's window, and have it replaced. A DataNode that never tells its links
 * apart (version 1) is read as before.
 *
 * <p>A DataNode's stage also holds its packets' wait in the sending DataNode's egress queue, after
 * the sender's write returned: no report sees it, and a NIC slow sending makes every DataNode it
 * feeds look slow. So where the caller knows, from the JVM's pipelines, that the DataNode at a
 * position is fast where nothing but the client feeds it ({@link #feed}), its stage there is not
 * evidence about it: nobody's, or, where the caller also knows the DataNode before it slow to
 * feed any DataNode, the link's, given to the link's time and to the end the caller names for the
 * link. (Kept only where it blamed nobody, as a stage holding a link is, the stages left were the
 * small ones: such a DataNode then looked faster than it is, and the others slow beside it.)
 *
 * <p>Downstream times that are not physical (negative, longer than the round trip, or longer than
 * the time of a DataNode upstream, whose span contains it; a blocked time longer than its own
 * span) mean a DataNode misreports: the ack is evidence about nobody, and does not move the
 * stages' clocks.
 */
public final class WriteAttribution {
  /** Marks a pipeline position the packet says nothing about. */
  public static final long NO_EVIDENCE = -1;
  /** Marks a downstream time the ack does not carry. */
  public static final long UNKNOWN = -1;

  private final int nodes;
  private final boolean[] knownFast;
  /** Whose the time of link i (from position i to i + 1) is. */
  private final LinkEnd[] linkEnd;
  /** This packet's blocked times, where known; {@link #UNKNOWN} elsewhere. */
  private final long[] blocked;
  /** Positions whose stage is their own: their samples are exact. */
  private final boolean[] single;
  /** Positions that told their link to the next apart on some packet of this pipeline. */
  private final boolean[] tellsLinks;
  /** Positions whose stage, on this packet, holds the link into them (see above). */
  private final boolean[] withLink;
  private final long[] noBlocked;
  /** This packet's service times of one-DataNode stages, before links were given to them. */
  private final long[] own;
  /** When the previous packet left each position (the last: its ack), or a later time. */
  private final long[] lastDeparture;
  /** This packet's departures, where {@link #known}; the last position's is its ack. */
  private final long[] departure;
  private final boolean[] known;
  private final long[] stageService;
  /** Positions whose DataNode the caller knows fast where it is first (see {@link #feed}). */
  private final boolean[] fastWhereFirst;
  /** Positions the DataNode before which the caller knows slow to feed any DataNode. */
  private final boolean[] slowFeeder;
  /** This packet's stage of the DataNode after each link, given to the link (see above). */
  private final long[] linkExtra;
  /** This packet's one-DataNode stages, before any link was given to them or they to a link. */
  private final long[] stage;

  /** @param nodes DataNodes in the pipeline */
  public WriteAttribution(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("a pipeline has at least one DataNode, got " + nodes);
    }
    this.nodes = nodes;
    this.knownFast = new boolean[nodes];
    this.linkEnd = new LinkEnd[nodes];
    Arrays.fill(linkEnd, LinkEnd.NOBODY);
    this.blocked = new long[nodes];
    this.single = new boolean[nodes];
    this.tellsLinks = new boolean[nodes];
    this.withLink = new boolean[nodes];
    this.noBlocked = new long[nodes];
    Arrays.fill(noBlocked, UNKNOWN);
    this.own = new long[nodes];
    this.lastDeparture = new long[nodes];
    Arrays.fill(lastDeparture, Long.MIN_VALUE);
    this.departure = new long[nodes];
    this.known = new boolean[nodes];
    this.stageService = new long[nodes];
    this.fastWhereFirst = new boolean[nodes];
    this.slowFeeder = new boolean[nodes];
    this.linkExtra = new long[nodes];
    this.stage = new long[nodes];
  }

  /**
   * Marks the DataNode at {@code position} as one that tells its links apart (its report's
   * version says so), though a packet may lack its blocked time; read by later calls.
   */
  public void tellsLinks(int position) {
    tellsLinks[position] = true;
  }

  /**
   * Marks the pipeline positions the caller knows, from other evidence, to be fast; read by later
   * calls.
   */
  public void knownFast(int position, boolean fast) {
    knownFast[position] = fast;
  }

  /**
   * What the caller knows of the feed into the DataNode at {@code position} (after the first),
   * from the JVM's pipelines: whether that DataNode is fast where nothing but the client feeds it,
   * and whether the DataNode before it is slow to feed any DataNode. Read by later calls (see
   * above); the second counts only with the first.
   */
  public void feed(int position, boolean fastWhereFirst, boolean slowFeeder) {
    if (position < 1 || position >= nodes) {
      throw new IllegalArgumentException("no DataNode feeds position " + position + " of "
          + nodes);
    }
    this.fastWhereFirst[position] = fastWhereFirst;
    this.slowFeeder[position] = fastWhereFirst && slowFeeder;
  }

  /** Which end of a link its time is given to. */
  public enum LinkEnd {
    /** Nobody yet: the link is not judged. */
    NOBODY,
    /** The DataNode the packet was forwarded to. */
    RECEIVER,
    /** The DataNode that forwarded it. */
    SENDER
  }

  /**
   * Names the end that the time of the link from {@code position} to the next is given to
   * ({@link LinkEnd#NOBODY} until named); read by later calls.
   */
  public void blameLink(int position, LinkEnd end) {
    linkEnd[position] = end;
  }

  /** {@link #attribute(long, long, long[], long[], long[], long[])} with no blocked times known. */
  public boolean attribute(long sentNanos, long ackNanos, long[] downstreamNanos,
      long[] samples) {
    return attribute(sentNanos, ackNanos, downstreamNanos, noBlocked, samples, null);
  }

  /**
   * Fills {@code samples[i]} with the service time attributable to pipeline position {@code i},
   * or {@link #NO_EVIDENCE}, and {@code links[i]} with the time of the link from position
   * {@code i} to the next, or {@link #NO_EVIDENCE}. Returns whether every position had a stage of
   * its own.
   *
   * @param sentNanos when the packet went on the wire
   * @param ackNanos when its ack was read (same clock)
   * @param downstreamNanos one slot per DataNode: its downstream time for this packet, or
   *     {@link #UNKNOWN}; the last DataNode's slot is not read (it has nothing downstream)
   * @param blockedNanos one slot per DataNode: how long of its downstream time its forward
   *     blocked, or {@link #UNKNOWN}; read only where its downstream time is known
   * @param samples one slot per DataNode of the pipeline
   * @param links one slot per DataNode of the pipeline, or null when not wanted
   */
  public boolean attribute(long sentNanos, long ackNanos, long[] downstreamNanos,
      long[] blockedNanos, long[] samples, long[] links) {
    if (samples.length != nodes || downstreamNanos.length != nodes
        || blockedNanos.length != nodes || (links != null && links.length != nodes)) {
      throw new IllegalArgumentException(samples.length + ", " + downstreamNanos.length + ", "
          + blockedNanos.length + " and " + (links == null ? "no" : links.length)
          + " slots for " + nodes + " DataNodes");
    }
    Arrays.fill(samples, NO_EVIDENCE);
    Arrays.fill(own, NO_EVIDENCE);
    Arrays.fill(stage, NO_EVIDENCE);
    if (links != null) {
      Arrays.fill(links, NO_EVIDENCE);
    }
    long bound = ackNanos - sentNanos;
    if (bound < 0) {
      return false;
    }
    for (int i = 0; i < nodes - 1; i++) {
      long d = downstreamNanos[i];
      known[i] = d != UNKNOWN;
      blocked[i] = UNKNOWN;
      if (!known[i]) {
        continue;
      }
      long b = blockedNanos[i];
      if (d < 0 || d > bound || (b != UNKNOWN && (b < 0 || b > d))) {
        return false; // not physical: evidence about nobody
      }
      bound = d;
      departure[i] = ackNanos - d;
      blocked[i] = b;
    }
    for (int i = 0; i < nodes - 1; i++) {
      tellsLinks[i] |= blocked[i] != UNKNOWN;
    }
    departure[nodes - 1] = ackNanos;
    known[nodes - 1] = true;
    blocked[nodes - 1] = UNKNOWN;

    long arrival = sentNanos;
    int first = 0;
    boolean exact = true;
    for (int i = 0; i < nodes; i++) {
      single[i] = false;
      withLink[i] = i > 0 && known[i - 1]
          && ((tellsLinks[i - 1] && blocked[i - 1] == UNKNOWN) || fastWhereFirst[i]);
      if (!known[i]) {
        continue;
      }
      // Since its previous forward returned: its own service, not its wait on the link.
      stageService[i] = Math.max(0, departure[i] - Math.max(arrival, lastDeparture[i]));
      if (first == i) {
        samples[i] = stageService[i];
        single[i] = true;
      } else {
        exact = false;
      }
      arrival = departure[i];
      if (blocked[i] != UNKNOWN && known[i + 1]) { // the link, apart from the next stage
        arrival += blocked[i];
        if (links != null) {
          links[i] = blocked[i];
        }
      }
      first = i + 1;
    }
    readFeeds(samples, links);
    long worstSingle = giveLinksToTheirEnds(samples);
    exact &= keepStagesWithLinksThatBlameNobody(worstSingle, samples);
    if (!exact) {
      attributeSharedStages(worstSingle, samples);
    }

    long later = ackNanos;
    for (int i = nodes - 1; i >= 0; i--) {
      later = known[i] ? departure[i] + (blocked[i] == UNKNOWN ? 0 : blocked[i]) : later;
      lastDeparture[i] = Math.max(lastDeparture[i], later);
    }
    return exact;
  }

  /**
   * Notes each one-DataNode stage as it is ({@link #stage}), then takes the stage of a DataNode
   * fast where first from it: into the link into it where its feeder is slow to feed, else to
   * nobody.
   */
  private void readFeeds(long[] samples, long[] links) {
    for (int i = 0; i < nodes; i++) {
      stage[i] = single[i] ? samples[i] : NO_EVIDENCE;
      linkExtra[i] = 0;
    }
    for (int i = 1; i < nodes; i++) {
      if (single[i] && fastWhereFirst[i]) {
        if (slowFeeder[i]) {
          linkExtra[i - 1] = samples[i];
          if (links != null) {
            links[i - 1] = (blocked[i - 1] == UNKNOWN ? 0 : blocked[i - 1]) + samples[i];
          }
        }
        samples[i] = NO_EVIDENCE;
        single[i] = false;
      }
    }
  }

  /**
   * Adds each link's time, told apart this packet, to the end named for it (the receiver when the
   * sender's stage is shared: its own stage is the one exact sample there is). Returns the largest
   * one-DataNode sample, links included.
   */
  private long giveLinksToTheirEnds(long[] samples) {
    long worstSingle = -1;
    for (int i = 0; i < nodes; i++) {
      own[i] = single[i] ? samples[i] : NO_EVIDENCE;
    }
    for (int i = 1; i < nodes; i++) {
      boolean toldApart = blocked[i - 1] != UNKNOWN || linkExtra[i - 1] > 0;
      if (toldApart && known[i] && linkEnd[i - 1] != LinkEnd.NOBODY) {
        long time = (blocked[i - 1] == UNKNOWN ? 0 : blocked[i - 1]) + linkExtra[i - 1];
        int owner = linkEnd[i - 1] == LinkEnd.SENDER && single[i - 1] ? i - 1 : i;
        samples[owner] = samples[owner] == NO_EVIDENCE ? time : samples[owner] + time;
      }
    }
    for (int i = 0; i < nodes; i++) {
      if (single[i] && !withLink[i]) {
        worstSingle = Math.max(worstSingle, samples[i]);
      }
    }
    return worstSingle;
  }

  /**
   * Keeps the sample of a stage that holds the link into it only where it blames nobody (see
   * above); returns whether every such sample was kept.
   */
  private boolean keepStagesWithLinksThatBlameNobody(long worstSingle, long[] samples) {
    boolean kept = true;
    for (int i = 0; i < nodes; i++) {
      if (withLink[i] && single[i] && samples[i] > worstSingle) {
        samples[i] = NO_EVIDENCE;
        own[i] = NO_EVIDENCE;
        single[i] = false;
        kept = false;
      }
    }
    return kept;
  }

  /**
   * The last attributed packet's own service time at {@code position}, without any link's time,
   * or {@link #NO_EVIDENCE} where its stage was shared or the ack was evidence about nobody.
   */
  public long ownService(int position) {
    return own[position];
  }

  /**
   * The last attributed packet's service in the stage of {@code position} where that stage was
   * its own, before any link's time was given to it or it to a link; {@link #NO_EVIDENCE}
   * elsewhere. Position 0's is its service fed by the client alone.
   */
  public long stage(int position) {
    return stage[position];
  }

  /** Gives each stage of several DataNodes' service time to whom it may belong (see above). */
  private void attributeSharedStages(long worstSingle, long[] samples) {
    int first = 0;
    for (int i = 0; i < nodes; i++) {
      if (!known[i]) {
        continue;
      }
      if (first < i) {
        long service = stageService[i];
        int suspect = -1;
        // A link into the stage not told apart is a suspect the caller cannot know fast.
        int suspects = withLink[first] ? 1 : 0;
        for (int j = first; j <= i; j++) {
          if (service <= worstSingle) {
            samples[j] = service;
          } else if (!knownFast[j]) {
            suspect = j;
            suspects++;
          }
        }
        if (suspects == 1 && suspect >= 0) {
          samples[suspect] = service;
        }
      }
      first = i + 1;
    }
  }
}
