package io.curtail.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which DataNodes are at fault, with what, and when: a fraction of the cluster (or the first
 * {@code fixed} DataNodes, as the benchmark's dn0, or one whole rack), each given a fault kind
 * drawn from the mix, from an onset (the same for all: correlated; or spread over a span) to a
 * heal time.
 *
 * @param fraction share of DataNodes at fault, in [0, 1]
 * @param fixed the first this many DataNodes are at fault instead, when > 0
 * @param slowRack the first rack is at fault instead, when true
 * @param slowDisk weight of slow disks in the mix
 * @param throttled weight of throttled DataNodes
 * @param stalls weight of stalling disks
 * @param onsetNanos when the first fault starts
 * @param onsetSpreadNanos onsets spread uniformly over this span after it (0: all at once)
 * @param healNanos when every fault ends
 */
public record FaultPlan(double fraction, int fixed, boolean slowRack, int slowDisk,
    int throttled, int stalls, long onsetNanos, long onsetSpreadNanos, long healNanos) {

  public FaultPlan {
    if (!(fraction >= 0 && fraction <= 1) || fixed < 0 || slowDisk < 0 || throttled < 0
        || stalls < 0 || slowDisk + throttled + stalls == 0 || onsetNanos < 0
        || onsetSpreadNanos < 0 || healNanos <= onsetNanos + onsetSpreadNanos) {
      throw new IllegalArgumentException("a fault plan needs a fraction in [0, 1], weights >= 0"
          + " not all 0, and onset + spread < heal; got " + this);
    }
  }

  public static FaultPlan none() {
    return new FaultPlan(0, 0, false, 1, 0, 0, 0, 0, Long.MAX_VALUE);
  }

  /** The benchmark's: DataNode 0 has {@code kind} for the whole run. */
  public static FaultPlan dn0(Fault.Kind kind) {
    return new FaultPlan(0, 1, false, kind == Fault.Kind.SLOW_DISK ? 1 : 0,
        kind == Fault.Kind.THROTTLED ? 1 : 0, kind == Fault.Kind.STALLS ? 1 : 0, 0, 0,
        Long.MAX_VALUE);
  }

  /** A fraction of DataNodes with the benchmark's three faults in equal parts, from the start. */
  public static FaultPlan mix(double fraction) {
    return new FaultPlan(fraction, 0, false, 1, 1, 1, 0, 0, Long.MAX_VALUE);
  }

  public FaultPlan withOnset(long onset, long spread, long heal) {
    return new FaultPlan(fraction, fixed, slowRack, slowDisk, throttled, stalls, onset, spread,
        heal);
  }

  public FaultPlan rack() {
    return new FaultPlan(fraction, 0, true, slowDisk, throttled, stalls, onsetNanos,
        onsetSpreadNanos, healNanos);
  }

  record Assigned(int dn, Fault fault) { }

  List<Assigned> assign(Cluster c, SplittableRandom rnd) {
    int n = c.size();
    List<Integer> chosen = new ArrayList<>();
    if (slowRack) {
      for (DataNode d : c.nodes) {
        if (d.rack == 0) {
          chosen.add(d.id);
        }
      }
    } else if (fixed > 0) {
      for (int i = 0; i < Math.min(fixed, n); i++) {
        chosen.add(i);
      }
    } else {
      int k = (int) Math.round(fraction * n);
      int[] ids = new int[n];
      for (int i = 0; i < n; i++) {
        ids[i] = i;
      }
      for (int i = 0; i < k; i++) { // a partial Fisher-Yates shuffle: k distinct at random
        int j = i + rnd.nextInt(n - i);
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
        chosen.add(ids[i]);
      }
    }
    List<Assigned> out = new ArrayList<>(chosen.size());
    int total = slowDisk + throttled + stalls;
    for (int dn : chosen) {
      int x = rnd.nextInt(total);
      long onset = onsetNanos + (onsetSpreadNanos == 0 ? 0 : rnd.nextLong(onsetSpreadNanos));
      Fault f = x < slowDisk ? Fault.slowDisk(onset, healNanos)
          : x < slowDisk + throttled ? Fault.throttled(onset, healNanos)
          : Fault.stalls(onset, healNanos);
      out.add(new Assigned(dn, f));
    }
    return out;
  }
}
