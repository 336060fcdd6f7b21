package io.curtail.sim;

import io.curtail.client.policy.FailFast;
import java.util.SplittableRandom;

/**
 * A client running its workload: one operation at a time, on the host of a DataNode (its reads
 * find a local replica first, its writes put one there) or off the cluster. Shares its JVM's
 * {@link Knowledge} with the other clients of that JVM, as streams share a client runtime.
 */
final class SimClient implements EventQueue.Event {
  private final Simulation sim;
  final Knowledge knowledge;
  final FailFast failFast;
  final SplittableRandom rnd;
  private final int index;
  private final int host;
  private long due;
  private int done;

  SimClient(Simulation sim, Knowledge knowledge, int index, int host, long seed, long firstDue) {
    this.sim = sim;
    this.index = index;
    this.knowledge = knowledge;
    this.failFast = knowledge == null ? null : knowledge.policy.failFast();
    this.rnd = new SplittableRandom(seed);
    this.host = host;
    this.due = firstDue;
  }

  void start() {
    sim.q.at(due, this, 0);
  }

  @Override
  public void fire(long now, int tag) {
    Workload w = sim.workload;
    Metrics.Op op = w.pick(rnd.nextInt(1 << 30));
    switch (op) {
      case READ -> new ReadOp(sim, this, op, readOrder(), w.fileBytes(), 1).begin();
      case PREAD -> new ReadOp(sim, this, op, readOrder(), w.preadBytes(), w.preadsPerOp())
          .begin();
      case WRITE -> {
        int[] placed = sim.cluster.place(host, rnd, dn -> eligible(dn, now));
        new WriteOp(sim, this, placed, w.fileBytes(), w.blockBytes()).begin();
      }
    }
  }

  private int[] readOrder() {
    int file = sim.ownFiles ? (index * Math.max(1, sim.workload.opsPerClient()) + done)
        % sim.catalogue.length : rnd.nextInt(sim.catalogue.length);
    int[] replicas = sim.catalogue[file];
    return sim.cluster.readOrder(replicas, host, rnd);
  }

  /** Whether a new block may go to {@code dn}: the NameNode's considerLoad, and the mode's. */
  boolean eligible(int dn, long now) {
    DataNode d = sim.cluster.nodes[dn];
    if (sim.placementByLoad && d.active > 2 * sim.meanActive() + 2) {
      return false; // Hadoop's dfs.namenode.redundancy.considerLoad, on by default
    }
    if (sim.mode == Mode.ORACLE && d.faulty(now)) {
      return false;
    }
    return knowledge == null || !knowledge.avoided(dn, now);
  }

  /** This client's number, and how many operations it has finished. */
  int index() {
    return index;
  }

  int done() {
    return done;
  }

  void avoid(DataNode dn, long now) {
    knowledge.avoid(dn, now);
  }

  void opDone(long now) {
    opDoneAt(now);
  }

  /** The operation ended at {@code end}: the next one starts when due, or at once. */
  void opDoneAt(long end) {
    done++;
    Workload w = sim.workload;
    if (w.opsPerClient() > 0 && done >= w.opsPerClient()) {
      return;
    }
    due = w.paceNanos() > 0 ? due + w.paceNanos() : end;
    long next = Math.max(due, end);
    if (next < sim.endNanos) {
      sim.q.at(next, this, 0);
    }
  }
}
