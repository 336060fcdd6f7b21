package io.curtail.client.write;

import io.curtail.client.policy.Slowness;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.track.RecentSamples;
import io.curtail.client.track.SlowLinks;
import java.util.Arrays;
import java.util.List;

/**
 * One pipeline's links between DataNodes, link i from DataNode i to i + 1: their times and each
 * DataNode's own service, recorded per ack; judged by the one rule of slowness (on every ack until
 * there are enough samples, then every {@link #JUDGE_EVERY}), voted into the JVM's
 * {@link SlowLinks}, and the vote handed to the attribution.
 *
 * <p>Per ack ({@link #record}) nothing but wait-free window records: no lock, no statistics, no
 * allocation. A slow link or NIC holds every packet, so a verdict a few packets late costs a few
 * packets' wait; judging every ack cost as much as a CRC32C of the packet, and took the JVM-wide
 * lock every writer shares.
 *
 * <p>Links and own service are judged on their <em>medians</em>: a slow link delays nearly every
 * forward, while on a loaded machine scheduling stalls inflate every DataNode's tail alike (their
 * p95 rose to 15-60 ms on this project's 2-core CI, burying a 20 ms link). A link is judged
 * against the pipeline's <em>typical</em> own median, the lower median of its DataNodes' (a
 * DataNode's own is judged against the fastest, as fail-fast judges them): a link carries work no
 * DataNode's own service does (with encrypted transfer, a cipher at each end), and the fastest of
 * a few noisy medians is biased low: healthy encrypted links on the loaded 2-core CI reached over
 * three times the fastest own median, a false replacement, and about twice the typical one
 * (docs/results.md). And from the samples a median needs (a tenth of the
 * window: 10), not the 20 a p95 does: a link at a sixth of its pipelines' pace (six writers through
 * one 2 MiB/s link) gives a sample every 190 ms, so the first pipelines across it waited 3.8 s
 * for a verdict. Fewer still ({@link #KNOWN_LINK_SAMPLES}) where the JVM knows more: the link was
 * found slow by another pipeline, or the links out of its sender (into its receiver), pooled over
 * the JVM's pipelines, are slow ({@link #endSlow}). Whether a pipeline is slow enough to pay for a
 * replacement stays fail-fast's question; this only says which thing is slow.
 *
 * <p>A slow link whose time the vote gives to an end (the common end of several slow links, or a
 * receiver slow itself) goes into that DataNode's samples, where fail-fast judges it. One that is
 * the link's own goes into nobody's: neither healthy end's window fills with it, and the pipeline
 * leaves the link itself ({@link #linkToLeave}). When the vote changes, the link's time stops
 * going where it went.
 *
 * <p>A DataNode's stage holds its packets' wait in the egress queue of the DataNode feeding it,
 * which no report sees (a NIC shaped sending: its writes return at once, its packets leave at the
 * NIC's pace). So each DataNode's stages are pooled twice over the JVM's pipelines: where it was
 * first, fed by the client alone ({@link NodeTracker#firsts}), and as what the DataNode before it
 * fed ({@link NodeTracker#fed}). A DataNode fast where first is not judged on its stage here; fed
 * by a DataNode whose fed stages are slow whoever it feeds, its stage is the link's
 * ({@link WriteAttribution#feed}), judged and left as any slow link is.
 *
 * <p>The ack reader's own: not thread-safe.
 */
final class PipelineLinks {
  /** Acks between two judgements: the most a verdict is late, in packets. */
  static final int JUDGE_EVERY = 8;
  /**
   * Samples that confirm a link the JVM already found slow (another pipeline judged it, within
   * the memory of {@link SlowLinks}), or one an end of which the JVM's pipelines together find
   * slow ({@link #endSlow}): a pipeline that paid for the full number, or many that paid for it
   * together, and a new one through the link would otherwise pay again, a packet at the link's
   * pace each.
   */
  static final int KNOWN_LINK_SAMPLES = 4;
  /** What links and own service are judged on: see above. */
  static final double MEDIAN = 0.5;
  /**
   * The recent stages a DataNode's service where first, what it fed, and its writes fed fast are
   * judged on: a third of a block's packets, so that a DataNode that turned slow shows within one
   * pipeline it leads.
   */
  static final int RECENT_STAGES = 20; // at most NodeTracker.RECENT, what those windows keep
  /** How old a DataNode's service where first (or fed fast) may be and still say it is fast. */
  static final long FIRST_FRESH_NANOS = 2_000_000_000L;

  private final NodeId[] ids;
  /** The JVM's trackers of the pipeline's DataNodes, where links are pooled per end. */
  private final NodeTracker[] trackers;
  private final Slowness slowness;
  private final SlowLinks slowLinks;
  private final int window;
  private final LatencyWindow[] linkWindows;
  /** Each DataNode's own service in this pipeline, links left out. */
  private final LatencyWindow[] ownWindows;
  private final LatencyStats[] own;
  /** The vote on each link at the last judgement; null where not judged or not slow. */
  private final SlowLinks.Whose[] whose;
  /** Links found slow at the last judgement on the JVM's knowledge and few samples. */
  private final boolean[] onKnowledge;
  /** The rule of slowness judging from {@link #KNOWN_LINK_SAMPLES}. */
  private final Slowness confirming;
  private final LatencyStats[] linkStats;
  /** The own medians the last {@link #typicalOwn} judged, sorted. */
  private final long[] ownMedians;
  /** Each DataNode's recent median service where first, fresh; {@link Long#MAX_VALUE} if none. */
  private final long[] firstMedians;
  /** When {@link #judge} last judged. */
  private long judgedNanos;
  /**
   * The rule of slowness judging {@link #RECENT_STAGES} stages: from half of them, whatever
   * window the rule itself judges from (a window of 400 packets would otherwise want 40).
   */
  private final Slowness recent;
  private final long[] scratch = new long[LatencyWindow.CAPACITY];
  private int acks;

  PipelineLinks(NodeTracker[] trackers, Slowness slowness, SlowLinks slowLinks, int window) {
    this.trackers = trackers.clone();
    this.ids = new NodeId[trackers.length];
    for (int i = 0; i < trackers.length; i++) {
      ids[i] = trackers[i].node();
    }
    this.slowness = slowness;
    this.slowLinks = slowLinks;
    this.window = window;
    int n = ids.length;
    this.linkWindows = new LatencyWindow[n];
    this.ownWindows = new LatencyWindow[n];
    this.own = new LatencyStats[n];
    this.whose = new SlowLinks.Whose[n];
    this.onKnowledge = new boolean[n];
    this.confirming = slowness.withMinSamples(KNOWN_LINK_SAMPLES);
    this.linkStats = new LatencyStats[n];
    this.ownMedians = new long[n];
    this.firstMedians = new long[n];
    this.recent = slowness.withMinSamples(RECENT_STAGES / 2);
    for (int i = 0; i < n; i++) {
      linkWindows[i] = new LatencyWindow();
      ownWindows[i] = new LatencyWindow();
    }
  }

  /**
   * Records one ack's link times ({@code links[i]}, from DataNode i to i + 1), each DataNode's
   * own service ({@code own[i]}, links left out) and its stage as it was
   * ({@link WriteAttribution#stage}), where the attribution told them apart, else
   * {@link WriteAttribution#NO_EVIDENCE}; read at {@code now}.
   */
  void record(long[] links, long[] own, long[] stages, long now) {
    if (stages[0] != WriteAttribution.NO_EVIDENCE) {
      trackers[0].firsts().record(stages[0], now);
    }
    for (int i = 0; i < ids.length; i++) {
      if (own[i] != WriteAttribution.NO_EVIDENCE) {
        ownWindows[i].record(own[i]);
      }
      if (i > 0 && stages[i] != WriteAttribution.NO_EVIDENCE) {
        trackers[i - 1].fed().record(stages[i]);
      }
      if (links[i] != WriteAttribution.NO_EVIDENCE && i + 1 < ids.length) {
        linkWindows[i].record(links[i]);
        trackers[i].sends().record(links[i]);
        trackers[i + 1].receives().record(links[i]);
      }
    }
  }

  /**
   * On each of the first calls, until the windows can hold enough samples to judge, then on every
   * {@link #JUDGE_EVERY}th, judges each link whose time the DataNodes reported,
   * votes the verdicts into the JVM's {@link SlowLinks}, and tells the attribution whose each
   * link's time is from now on. Returns whether it judged.
   */
  boolean judge(long now, WriteAttribution attribution) {
    // Every ack until the first verdict is possible, so that it comes as early as any other.
    if (++acks > slowness.minSamples() && acks % JUDGE_EVERY != 0) {
      return false;
    }
    judgedNanos = now;
    judgeFeeds(now, attribution);
    for (int i = 0; i < ids.length; i++) {
      own[i] = ownWindows[i].stats(window, MEDIAN, scratch);
    }
    long typicalConfirming = typicalOwn(confirming, true);
    long typical = typicalOwn(slowness, false);
    // The last call left the medians it judged sorted: the fastest is the first.
    long fastest = typical == Long.MAX_VALUE ? Long.MAX_VALUE : ownMedians[0];
    boolean anySlow = false;
    // From the last link back: a DataNode blocked forwarding reads nothing meanwhile, so the link
    // into it blocks too; that back-pressure is the slow link's, not a second slow link.
    for (int i = ids.length - 2; i >= 0; i--) {
      linkStats[i] = linkWindows[i].stats(window, MEDIAN, scratch);
      whose[i] = null;
      onKnowledge[i] = false;
      if (whose[i + 1] != null) {
        continue;
      }
      boolean judged = slowness.judged(linkStats[i]) && typical != Long.MAX_VALUE;
      // Too few samples for the rule, but enough to confirm what the JVM knows (this link, or
      // an end whose links are slow); too few to clear it, so a link that does not look slow on
      // them is not forgotten.
      boolean confirms = !judged && confirming.judged(linkStats[i])
          && typicalConfirming != Long.MAX_VALUE
          && (slowLinks.knownSlow(ids[i], ids[i + 1], now) || endSlow(i, typicalConfirming));
      if (!judged && !confirms) {
        continue;
      }
      if (slowness.slower(linkStats[i].percentileNanos(), judged ? typical : typicalConfirming)) {
        slowLinks.slow(ids[i], ids[i + 1], now);
        whose[i] = SlowLinks.Whose.LINK;
        onKnowledge[i] = confirms;
        anySlow = true;
      } else if (judged) {
        slowLinks.fast(ids[i], ids[i + 1]);
      }
    }
    // All of this pipeline's votes first: a DataNode slow both ways is the common end of two.
    for (int i = 0; i + 1 < ids.length; i++) {
      if (anySlow && whose[i] != null) {
        boolean receiverSlow = slowness.judged(own[i + 1])
            && slowness.slower(own[i + 1].percentileNanos(), fastest);
        whose[i] = slowLinks.whose(ids[i], ids[i + 1], receiverSlow, now);
      }
      attribution.blameLink(i, whose[i] == SlowLinks.Whose.SENDER ? WriteAttribution.LinkEnd.SENDER
          : whose[i] == SlowLinks.Whose.RECEIVER ? WriteAttribution.LinkEnd.RECEIVER
          : WriteAttribution.LinkEnd.NOBODY);
    }
    return true;
  }

  /**
   * Tells the attribution, for each DataNode after the first, whether it is fast where first
   * (against the fastest other DataNode of the pipeline there, on recent stages) and whether the
   * one before it is slow to feed (its recent fed stages against the fastest there).
   */
  private void judgeFeeds(long now, WriteAttribution attribution) {
    for (int i = 0; i < ids.length; i++) {
      LatencyStats s = whereFirst(i, MEDIAN, now, scratch);
      firstMedians[i] = recent.judged(s) ? s.percentileNanos() : Long.MAX_VALUE;
    }
    for (int i = 1; i < ids.length; i++) {
      long others = Long.MAX_VALUE;
      for (int j = 0; j < ids.length; j++) {
        others = j == i ? others : Math.min(others, firstMedians[j]);
      }
      boolean fastWhereFirst = firstMedians[i] != Long.MAX_VALUE && others != Long.MAX_VALUE
          && !recent.slower(firstMedians[i], others);
      boolean slowFeeder = false;
      if (fastWhereFirst) { // the feeder matters only then: its statistics are not read otherwise
        LatencyStats fed = trackers[i - 1].fed().stats(RECENT_STAGES, MEDIAN, scratch);
        slowFeeder = recent.judged(fed)
            && recent.slower(fed.percentileNanos(), Math.min(others, firstMedians[i]));
      }
      attribution.feed(i, fastWhereFirst, slowFeeder);
    }
  }

  /** The {@code percentile} of DataNode {@code i}'s recent stages where it was first. */
  private LatencyStats whereFirst(int i, double percentile, long now, long[] scratch) {
    return fresh(trackers[i].firsts(), percentile, now, scratch);
  }

  /**
   * The {@code percentile} of the last {@link #RECENT_STAGES} of {@code samples}, if one was
   * recorded within {@link #FIRST_FRESH_NANOS} of {@code now}; else {@link LatencyStats#EMPTY}.
   * Callers judge it with {@link #recent}.
   */
  private static LatencyStats fresh(RecentSamples samples, double percentile, long now,
      long[] scratch) {
    return samples.fresh(RECENT_STAGES, percentile, now, FIRST_FRESH_NANOS, scratch);
  }

  /**
   * Whether DataNode {@code i}'s window of writes, whose {@code percentile} is {@code windowNanos},
   * is slow only for samples that DataNodes not known fast fed it: its recent samples fed fast
   * (by the client, or a DataNode known fast: {@link NodeTracker#recordWrite}) have the same
   * percentile not slow next to its window's, and their median not slow next to
   * {@code othersNanos} (the fastest other DataNode's percentile of writes). Its window is pooled
   * over the JVM's pipelines, and further down a pipeline its stage holds the wait in its
   * feeder's egress queue, which no report sees (see {@link NodeTracker#firsts}); its own
   * slowness (a disk, a throttle, its CPU) shows whoever feeds it. Not while its link out in this
   * pipeline is known slow: a NIC slow sending whose forward blocks (the embedded cluster's) is
   * voted its sender's, and is slow whoever feeds it. Reads the trackers only: callable from any
   * thread with a {@code scratch} of its own ({@link LatencyWindow#CAPACITY}).
   */
  boolean slowOnlyBehindOthers(int i, double percentile, long windowNanos, long othersNanos,
      long now, long[] scratch) {
    if (i + 1 < ids.length && slowLinks.knownSlow(ids[i], ids[i + 1], now)) {
      return false;
    }
    RecentSamples fedFast = trackers[i].writesFedFast();
    LatencyStats median = fresh(fedFast, MEDIAN, now, scratch);
    return recent.judged(median) && !recent.slower(median.percentileNanos(), othersNanos)
        && recent.slower(windowNanos, fresh(fedFast, percentile, now, scratch).percentileNanos());
  }

  /**
   * Whether the links out of link {@code i}'s sender, or into its receiver, pooled over the JVM's
   * pipelines, are slow against {@code typical} by the rule: a NIC slow one way. Each pipeline
   * through such a NIC gets a sample a packet at its pace (six writers through 2 MiB/s: one in
   * 190 ms), so the first pipelines to meet it waited 1.5 to 1.9 s for the samples a median
   * needs; pooled, the pipelines meeting it together find it in a fraction of that. It only
   * lets a link be judged on fewer samples of its own, which must be slow as well: a pipeline
   * whose link out of that DataNode is fast is left alone, and one slow link does not make its
   * sender's other links slow.
   */
  private boolean endSlow(int i, long typical) {
    return pooledSlow(trackers[i].sends(), typical)
        || pooledSlow(trackers[i + 1].receives(), typical);
  }

  private boolean pooledSlow(LatencyWindow pooled, long typical) {
    LatencyStats s = pooled.stats(window, MEDIAN, scratch);
    return slowness.judged(s) && slowness.slower(s.percentileNanos(), typical);
  }

  /**
   * The lower median of the own medians {@code rule} judges (the middle one of three, the faster
   * of two), or with {@code fewSamples} their median (the mean of two); {@link Long#MAX_VALUE} if
   * it judges none. On the few samples that confirm what the JVM knows, two DataNodes' medians
   * are noisy, and the faster is biased low: healthy encrypted links on two loaded cores came out
   * three and more times it at a pipeline's start (a 3DES link's 32 ms against own medians of 22
   * and 2 ms) and were left. On a judged window the lower median stays: the mean there made a
   * slow NIC's link slower to find on the embedded cluster, its time in the next DataNode's
   * window meanwhile.
   */
  private long typicalOwn(Slowness rule, boolean fewSamples) {
    int judged = 0;
    for (LatencyStats s : own) {
      if (rule.judged(s)) {
        ownMedians[judged++] = s.percentileNanos();
      }
    }
    if (judged == 0) {
      return Long.MAX_VALUE;
    }
    Arrays.sort(ownMedians, 0, judged);
    int lower = (judged - 1) / 2;
    return fewSamples ? (ownMedians[lower] + ownMedians[judged / 2]) / 2 : ownMedians[lower];
  }

  /**
   * The pipeline position to replace to leave a slow link whose time, at the last judgement, was
   * the link's own (its sender: either end leaves the link, and the sender is where a shaped
   * interface is), or -1 if none. {@code out} is given each DataNode's own median service and,
   * at that position, the link's, for fail-fast to weigh the replacement.
   */
  int linkToLeave(List<LatencyStats> out) {
    for (int i = 0; i + 1 < ids.length; i++) {
      if (whose[i] == SlowLinks.Whose.LINK) {
        out.clear();
        for (int j = 0; j < ids.length; j++) {
          out.add(j == i ? linkStats[i] : ownOrWhereFirst(j));
        }
        return i;
      }
    }
    return -1;
  }

  /**
   * DataNode {@code j}'s own service in this pipeline; where this pipeline has too few samples of
   * it, its recent service where it was first (fresh at the last judgement), if that has enough.
   * The stage of a DataNode fast where first is nobody's here ({@link WriteAttribution#feed}), so
   * in a pipeline of such DataNodes after a slow link only the first had samples of its own, and
   * fail-fast, which compares two DataNodes at least, kept the link for seconds.
   */
  private LatencyStats ownOrWhereFirst(int j) {
    if (slowness.judged(own[j])) {
      return own[j];
    }
    LatencyStats first = whereFirst(j, MEDIAN, judgedNanos, scratch);
    return recent.judged(first) ? first : own[j];
  }

  /**
   * Whether the link at {@code position}, to leave, was found slow on the JVM's knowledge and
   * {@link #KNOWN_LINK_SAMPLES} samples: the statistics {@link #linkToLeave} gave are then to be
   * weighed by a fail-fast policy judging from as few.
   */
  boolean onKnowledge(int position) {
    return onKnowledge[position];
  }
}
