package io.curtail.client.runtime;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.policy.HedgeBudget;
import io.curtail.client.track.LatencyRegistry;
import io.curtail.client.track.SlowLinks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a JVM knows of one cluster's DataNodes, and the clock it is kept by: their latencies
 * ({@link LatencyRegistry}), the links between them found slow ({@link SlowLinks}), and the DataNodes judged slow or heard busy ({@link AvoidedNodes});
 * and the {@link HedgeBudget} its file systems' reads share, so that a JVM of many clients (a
 * Spark executor's tasks) hedges no more than a tenth of its packets however many clients it has.
 *
 * <p>Shared by default: every Curtail file system of a JVM on the same cluster, with the same
 * {@code curtail.knowledge.*} and hedge budget settings, gets the same runtime from {@link #acquire}, so a Spark
 * executor's tasks learn from each other. The key includes the cluster, so what was learnt of one
 * cluster's DataNodes never passes to another's; and a runtime is dropped when the last file
 * system using it closes, so a new cluster on reused ports starts afresh. Tests and the benchmark
 * set a scope of their own ({@code curtail.knowledge.scope}) to start cold, or build one with
 * {@link #create}. Thread-safe.
 */
public final class CurtailRuntime {
  private static final Map<String, CurtailRuntime> SHARED = new HashMap<>();

  private final String key;
  private final NanoClock clock;
  private final LatencyRegistry registry;
  private final AvoidedNodes slowNodes;
  private final AvoidedNodes busyNodes;
  private final HedgeBudget hedgeBudget;
  private final SlowLinks slowLinks;
  /** File systems holding this runtime; guarded by {@link #SHARED}. */
  private int users;

  private CurtailRuntime(String key, NanoClock clock, CurtailConfig config) {
    this.key = key;
    this.clock = clock;
    this.registry = new LatencyRegistry(clock::nanoTime, config.maxKnownNodes(),
        config.knowledgeIdleNanos(), config.knowledgeMemoryNanos());
    this.slowNodes = new AvoidedNodes(clock, config.knowledgeMemoryNanos(),
        config.maxAvoidedNodes());
    this.busyNodes = new AvoidedNodes(clock, config.knowledgeMemoryNanos(),
        config.maxAvoidedNodes());
    this.hedgeBudget = new HedgeBudget(config.hedgeBudgetRatio(), config.hedgeBudgetBurst());
    this.slowLinks = new SlowLinks(config.knowledgeMemoryNanos(), config.maxKnownNodes());
  }

  /** A runtime of its own, shared with nobody: for tests and simulations. */
  public static CurtailRuntime create(NanoClock clock, CurtailConfig config) {
    return new CurtailRuntime(null, clock, config);
  }

  /**
   * The runtime the file systems on {@code cluster} with {@code config}'s knowledge settings
   * share, created on first use; each call must be matched by a {@link #release}.
   */
  public static CurtailRuntime acquire(String cluster, CurtailConfig config) {
    String key = cluster + "|" + config.knowledgeKey();
    synchronized (SHARED) {
      CurtailRuntime r = SHARED.computeIfAbsent(key,
          k -> new CurtailRuntime(k, NanoClock.SYSTEM, config));
      r.users++;
      return r;
    }
  }

  /** Gives back a runtime from {@link #acquire}; the last user's release forgets it. */
  public void release() {
    if (key == null) {
      return;
    }
    synchronized (SHARED) {
      if (--users == 0) {
        SHARED.remove(key, this);
      }
    }
  }

  /** The runtimes file systems share now (not those made with {@link #create}). */
  public static List<CurtailRuntime> shared() {
    synchronized (SHARED) {
      return new ArrayList<>(SHARED.values());
    }
  }

  public NanoClock clock() {
    return clock;
  }

  /** Each DataNode's recent read and write latencies, and its busy flag. */
  public LatencyRegistry registry() {
    return registry;
  }

  /** DataNodes recently judged slow by fail-fast. */
  public AvoidedNodes slowNodes() {
    return slowNodes;
  }

  /** The hedges the file systems sharing this runtime may start. */
  public HedgeBudget hedgeBudget() {
    return hedgeBudget;
  }

  /** Links between DataNodes the pipelines found slow: the vote on whose their time is. */
  public SlowLinks slowLinks() {
    return slowLinks;
  }

  /** DataNodes that said on their acks that they are busy. */
  public AvoidedNodes busyNodes() {
    return busyNodes;
  }
}
