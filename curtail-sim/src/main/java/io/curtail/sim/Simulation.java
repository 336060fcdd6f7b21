package io.curtail.sim;

import java.util.SplittableRandom;

/**
 * One run: a cluster, its faults, clients in JVMs and one mode, on one {@link EventQueue}.
 * Deterministic for a seed: every random choice comes from generators split from it, and the
 * queue fires simultaneous events in the order they were scheduled.
 */
public final class Simulation {
  /** Hadoop's default packet: 64 KiB of data. */
  static final long PACKET_BYTES = 64 * 1024;

  final EventQueue q = new EventQueue();
  final Cluster cluster;
  final Hardware hw;
  final Mode mode;
  final Policy policy;
  final Workload workload;
  final Metrics metrics = new Metrics();
  final int[][] catalogue;
  final long endNanos;
  private final long seed;
  long packets;
  /** Whether the NameNode places new blocks by load ({@code dfs.namenode.redundancy.considerLoad}). */
  boolean placementByLoad = true;
  /** Whether each client reads files of its own, each once, in turn (else any, at random). */
  boolean ownFiles;

  /**
   * @param s what to simulate
   * @param mode how clients choose
   * @param policy the client's thresholds
   */
  public Simulation(Setup s, Mode mode, Policy policy) {
    this(s, mode, policy, false);
  }

  /**
   * @param sharedFileSystem whether a JVM's clients share one file system (threads of one
   *     application with Hadoop's cached {@code FileSystem}), and so its read state: thresholds,
   *     backoffs, packet count, the DataNodes compared; else each client is a file system of its
   *     own, sharing only the JVM's registry, budget and avoided DataNodes
   */
  public Simulation(Setup s, Mode mode, Policy policy, boolean sharedFileSystem) {
    this.hw = s.hw();
    this.mode = mode;
    this.policy = policy;
    this.workload = s.workload();
    this.endNanos = s.durationNanos();
    this.seed = s.seed();
    this.metrics.recordFrom = s.warmupNanos();
    this.cluster = new Cluster(s.datanodes(), s.racks(), hw, s.hostCores(), s.seed() * 31 + 7);
    SplittableRandom root = new SplittableRandom(s.seed());
    SplittableRandom faults = root.split();
    SplittableRandom files = root.split();
    SplittableRandom clients = root.split();
    for (var f : s.faults().assign(cluster, faults)) {
      cluster.nodes[f.dn()].fault(f.fault());
    }
    this.catalogue = new int[Math.max(1, s.files())][];
    for (int i = 0; i < catalogue.length; i++) {
      int writer = s.clientsOnDataNodes() ? files.nextInt(cluster.size()) : -1;
      catalogue[i] = cluster.place(writer, files, Cluster.Eligible.ANY);
    }
    int jvms = (s.clients() + s.clientsPerJvm() - 1) / s.clientsPerJvm();
    Knowledge[] knowledge = new Knowledge[jvms];
    for (int j = 0; j < jvms; j++) {
      knowledge[j] = mode == Mode.CURTAIL ? new Knowledge(q, policy) : null;
    }
    long stagger = workload.paceNanos() > 0 ? workload.paceNanos() : 1_000_000L;
    for (int c = 0; c < s.clients(); c++) {
      int jvm = c / s.clientsPerJvm();
      int host = s.clientsOnDataNodes() ? (int) ((long) jvm * cluster.size() / jvms) : -1;
      long first = stagger * c / s.clients();
      Knowledge own = knowledge[jvm] == null || sharedFileSystem ? knowledge[jvm]
          : new Knowledge(knowledge[jvm]);
      new SimClient(this, own, c, host, clients.nextLong(), first).start();
    }
  }

  /**
   * Runs as the benchmark's embedded cluster does: the NameNode places blocks without regard to
   * load (its {@code MiniClusterStart} turns considerLoad off), and client {@code c}'s
   * {@code k}-th read is of file {@code c × ops + k}, as each benchmark client reads its own
   * files once each.
   */
  public Simulation likeTheBenchmark() {
    placementByLoad = false;
    ownFiles = true;
    return this;
  }

  /**
   * Places the catalogue's files again, by the NameNode's default placement with a writer off the
   * cluster, from {@code seed} alone: runs given the same seed read the same files held by the
   * same DataNodes, as the benchmark's rounds and modes all read the files it wrote once before
   * them (its {@code Runner.prepare}). Call before {@link #run}.
   */
  public Simulation filesPlacedBy(long seed) {
    SplittableRandom files = new SplittableRandom(seed);
    for (int i = 0; i < catalogue.length; i++) {
      catalogue[i] = cluster.place(-1, files, Cluster.Eligible.ANY);
    }
    return this;
  }

  /**
   * Slows the shared host's cores in spells: to {@code speed} of their usual speed, for an
   * exponentially distributed time of mean {@code meanNanos}, one spell every
   * {@code everyNanos} on average (exponential gaps). It stands for the other processes of the
   * machine the benchmark shares, which take its cores for a while now and then: every DataNode
   * and client slows at once, and the work under way stretches, the work of the slow DataNode's
   * fault (a sleep) not.
   */
  public Simulation slowSpells(long everyNanos, long meanNanos, double speed) {
    if (cluster.host == null || everyNanos <= 0 || meanNanos <= 0) {
      throw new IllegalArgumentException("slow spells need a shared host and times > 0; got"
          + " every " + everyNanos + " ns, mean " + meanNanos + " ns");
    }
    SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + everyNanos);
    java.util.List<long[]> spells = new java.util.ArrayList<>();
    long t = 0;
    while (true) {
      t += (long) (-Math.log(1 - rnd.nextDouble()) * everyNanos);
      if (t >= endNanos) {
        break;
      }
      long end = t + (long) (-Math.log(1 - rnd.nextDouble()) * meanNanos);
      spells.add(new long[] {t, end});
      t = end;
    }
    long[] starts = new long[spells.size()];
    long[] ends = new long[spells.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = spells.get(i)[0];
      ends[i] = spells.get(i)[1];
    }
    cluster.host.slowIn(starts, ends, speed);
    return this;
  }

  /** Runs to the end; returns what was measured. */
  public Metrics run() {
    q.runUntil(endNanos);
    metrics.packets = packets;
    return metrics;
  }

  public long eventsFired() {
    return q.fired();
  }

  double meanActive() {
    return cluster.meanActive();
  }
}
