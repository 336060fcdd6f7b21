package io.curtail.sim;

import java.util.SplittableRandom;

/**
 * DataNodes in racks, and the NameNode's two answers the clients need: where a new block's
 * replicas go (its default, rack-aware placement) and in which order a reader gets them.
 */
public final class Cluster {
  final DataNode[] nodes;
  final int racks;
  private final int perRack;
  /** Transfers in progress on all DataNodes. */
  private final long[] active = new long[1];

  /** The one host's cores when every DataNode and client shares it, else null. */
  final Fifo host;

  /**
   * @param hostCores 0 for DataNodes on hosts of their own; else the cores of the one host every
   *     DataNode and client runs on (the benchmark's embedded cluster)
   */
  private final Hardware hw;
  private final SplittableRandom rnd;

  Cluster(int datanodes, int racks, Hardware hw, int hostCores, long seed) {
    this.hw = hw;
    this.rnd = new SplittableRandom(seed);
    this.host = hostCores > 0 ? new Fifo(hostCores) : null;
    if (datanodes < 3 || racks < 1 || racks > datanodes) {
      throw new IllegalArgumentException("need at least 3 DataNodes (replication 3) and between 1"
          + " and as many racks; got " + datanodes + " DataNodes in " + racks + " racks");
    }
    this.racks = racks;
    this.perRack = (datanodes + racks - 1) / racks;
    this.nodes = new DataNode[datanodes];
    for (int i = 0; i < datanodes; i++) {
      nodes[i] = new DataNode(i, i / perRack, hw, active, host, rnd.nextLong());
    }
  }

  /** A client's own work on a packet from {@code at}: on the shared host's cores, if any. */
  long client(long at, Hardware hw) {
    long cost = hw.jittered(hw.clientPacketNanos(), 1 - rnd.nextDouble());
    return host != null ? host.serve(at, cost) : at + cost;
  }

  /**
   * When the NameNode knows a block written at {@code written} is complete: the first of its
   * DataNodes' reports (the minimum replication is one).
   */
  long reported(long written, int replicas) {
    double first = Double.MAX_VALUE;
    for (int i = 0; i < replicas; i++) {
      first = Math.min(first, -Math.log(1 - rnd.nextDouble()));
    }
    return written + (long) (first * hw.reportNanos());
  }

  double meanActive() {
    return (double) active[0] / nodes.length;
  }

  int size() {
    return nodes.length;
  }

  /**
   * The NameNode's default placement of 3 replicas for a writer on {@code writer} (-1: off the
   * cluster): the first on the writer's DataNode (else a random one), the second on another rack,
   * the third beside the second; with one rack, three distinct DataNodes. A DataNode {@code ok}
   * refuses is not chosen while others remain (the NameNode's considerLoad and exclusions).
   */
  int[] place(int writer, SplittableRandom rnd, Eligible ok) {
    int[] out = new int[3];
    out[0] = writer >= 0 && ok.test(writer) ? writer : pick(rnd, -1, -1, out, 0, ok);
    int firstRack = nodes[out[0]].rack;
    if (racks == 1) {
      out[1] = pick(rnd, -1, -1, out, 1, ok);
      out[2] = pick(rnd, -1, -1, out, 2, ok);
    } else {
      out[1] = pick(rnd, -1, firstRack, out, 1, ok);
      out[2] = pick(rnd, nodes[out[1]].rack, -1, out, 2, ok);
    }
    return out;
  }

  /** A DataNode for a pipeline's replacement, not one of {@code pipeline}; -1 if none. */
  int spare(int[] pipeline, SplittableRandom rnd, Eligible ok) {
    if (nodes.length <= pipeline.length) {
      return -1;
    }
    int[] taken = pipeline.clone();
    return pick(rnd, -1, -1, taken, taken.length, ok);
  }

  /**
   * A random DataNode on {@code onRack} (-1: any), not on {@code notRack}, not among the first
   * {@code taken} of {@code chosen}, eligible if any is: tries at random, then scans.
   */
  private int pick(SplittableRandom rnd, int onRack, int notRack, int[] chosen, int taken,
      Eligible ok) {
    int from = onRack >= 0 ? onRack * perRack : 0;
    int to = onRack >= 0 ? Math.min(nodes.length, from + perRack) : nodes.length;
    for (int pass = 0; pass < 2; pass++) {
      for (int attempt = 0; attempt < 32; attempt++) {
        int c = from + rnd.nextInt(to - from);
        if (fits(c, notRack, chosen, taken) && (pass == 1 || ok.test(c))) {
          return c;
        }
      }
      int start = from + rnd.nextInt(to - from);
      for (int k = 0; k < to - from; k++) {
        int c = from + (start - from + k) % (to - from);
        if (fits(c, notRack, chosen, taken) && (pass == 1 || ok.test(c))) {
          return c;
        }
      }
    }
    if (onRack >= 0) {
      return pick(rnd, -1, notRack, chosen, taken, ok); // a rack too small: anywhere else
    }
    if (notRack >= 0) {
      return pick(rnd, -1, -1, chosen, taken, ok);
    }
    throw new IllegalStateException("no DataNode left for a replica");
  }

  private boolean fits(int c, int notRack, int[] chosen, int taken) {
    if (notRack >= 0 && nodes[c].rack == notRack) {
      return false;
    }
    for (int i = 0; i < taken; i++) {
      if (chosen[i] == c) {
        return false;
      }
    }
    return true;
  }

  /**
   * The NameNode's order of {@code replicas} for a reader on {@code reader} (-1: off the
   * cluster): its own DataNode, then its rack, then the rest, shuffled within each distance.
   */
  int[] readOrder(int[] replicas, int reader, SplittableRandom rnd) {
    int n = replicas.length;
    int[] out = replicas.clone();
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    // A stable insertion sort by distance keeps the shuffle within each distance.
    for (int i = 1; i < n; i++) {
      int v = out[i];
      int j = i - 1;
      while (j >= 0 && distance(out[j], reader) > distance(v, reader)) {
        out[j + 1] = out[j];
        j--;
      }
      out[j + 1] = v;
    }
    return out;
  }

  private int distance(int dn, int reader) {
    if (reader < 0) {
      return 4;
    }
    return dn == reader ? 0 : nodes[dn].rack == nodes[reader].rack ? 2 : 4;
  }

  /** Whether a DataNode may be chosen. */
  @FunctionalInterface
  interface Eligible {
    Eligible ANY = dn -> true;

    boolean test(int dn);
  }
}
