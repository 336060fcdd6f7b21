package io.curtail.bench;

import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import java.util.Collections;
import java.util.Map;
import java.util.function.Function;

/**
 * A named experiment: a fault on one DataNode of the embedded cluster plus a workload, and how its
 * pipelines are placed. The catalogue of them, in groups, is {@link Scenarios}.
 */
public final class Scenario {
  /** Embedded cluster size: replication 3 leaves two spare DataNodes for replacements. */
  public static final int DATANODES = 5;
  /** The DataNode every scenario's fault is injected on. */
  public static final int FAULTY = 0;
  /** The far end of the link-fault scenarios' slow link, from {@link #FAULTY} to it. */
  public static final int LINK_PEER = 1;

  private final String name;
  private final String description;
  private final Workload workload;
  private final String faultDescription;
  private final Function<FaultyCluster, Fault> fault;
  private final Placement placement;
  /** Settings every mode's clients get in this scenario, before the mode's own. */
  private final Map<String, String> clientSettings;

  Scenario(String name, String description, Workload workload, String faultDescription,
      Function<FaultyCluster, Fault> fault) {
    this(name, description, workload, faultDescription, fault, Placement.NAMENODE);
  }

  Scenario(String name, String description, Workload workload, String faultDescription,
      Function<FaultyCluster, Fault> fault, Placement placement) {
    this(name, description, workload, faultDescription, fault, placement,
        Collections.emptyMap());
  }

  Scenario(String name, String description, Workload workload, String faultDescription,
      Function<FaultyCluster, Fault> fault, Placement placement,
      Map<String, String> clientSettings) {
    this.clientSettings = clientSettings;
    this.name = name;
    this.description = description;
    this.workload = workload;
    this.faultDescription = faultDescription;
    this.fault = fault;
    this.placement = placement;
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  public Workload workload() {
    return workload;
  }

  public String faultDescription() {
    return faultDescription;
  }

  public boolean hasFault() {
    return fault != null;
  }

  /**
   * The DataNodes this scenario's fault is on, {@link #FAULTY} first; for a slow link, its two
   * ends, from first; none for a healthy scenario.
   */
  public int[] faultyDataNodes() {
    return fault == null ? new int[0] : placement == Placement.LINK
        ? new int[] {FAULTY, LINK_PEER} : new int[] {FAULTY};
  }

  /**
   * Whether writers place every pipeline themselves (the faulty DataNode first, second, where a
   * stock ack cannot tell it from the third, or last; or across its slow link), rather than let
   * the NameNode place them.
   */
  public boolean placesPipelines() {
    return placement != Placement.NAMENODE;
  }

  /**
   * The DataNode numbers of the {@code k}th file's pipeline, first to last, on the embedded
   * cluster; null where the NameNode places them.
   */
  public int[] pipeline(int k) {
    return pipeline(k, DATANODES);
  }

  /** {@link #pipeline(int)} on a cluster of {@code dataNodes} numbered DataNodes. */
  public int[] pipeline(int k, int dataNodes) {
    return placement.pipeline(k, dataNodes, FAULTY, LINK_PEER);
  }

  /** Settings every mode's clients get in this scenario (short-circuit reads, say). */
  public Map<String, String> clientSettings() {
    return clientSettings;
  }

  Scenario withClient(Map<String, String> settings) {
    return new Scenario(name, description, workload, faultDescription, fault, placement,
        settings);
  }

  /** Injects this scenario's fault; closing the result undoes it. */
  public Fault inject(FaultyCluster cluster) {
    return fault == null ? () -> { } : fault.apply(cluster);
  }

  /** The same scenario with its workload scaled. */
  public Scenario scaled(double scale) {
    return new Scenario(name, description, workload.scaled(scale), faultDescription, fault,
        placement, clientSettings);
  }

  /** The same scenario with {@code streams} background streams. */
  public Scenario withBackground(int streams) {
    return new Scenario(name, description, workload.withBackground(streams), faultDescription,
        fault, placement, clientSettings);
  }

  /** The same scenario with its workload paced ({@link Workload#withPace}). */
  public Scenario withPace(long paceNanos) {
    return new Scenario(name, description, workload.withPace(paceNanos), faultDescription, fault,
        placement, clientSettings);
  }

  @Override
  public String toString() {
    return name;
  }
}
