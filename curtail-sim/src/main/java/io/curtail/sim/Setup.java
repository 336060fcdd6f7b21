package io.curtail.sim;

/**
 * What to simulate, apart from the mode and the thresholds.
 *
 * @param datanodes DataNodes in the cluster
 * @param racks racks they are spread over
 * @param clients clients running the workload
 * @param clientsPerJvm clients sharing one JVM's knowledge and hedge budget
 * @param clientsOnDataNodes clients run on DataNodes' hosts (else off the cluster)
 * @param files files in the catalogue reads pick from
 * @param workload what each client does
 * @param faults which DataNodes are at fault, and when
 * @param hw healthy service times
 * @param durationNanos simulated time
 * @param warmupNanos operations started before this are not counted
 * @param seed of every random choice
 * @param hostCores 0 for DataNodes on hosts of their own, else the cores of the one host all
 *     DataNodes and clients share (the benchmark's embedded cluster)
 */
public record Setup(int datanodes, int racks, int clients, int clientsPerJvm,
    boolean clientsOnDataNodes, int files, Workload workload, FaultPlan faults, Hardware hw,
    long durationNanos, long warmupNanos, long seed, int hostCores) {

  public Setup {
    if (clients < 1 || clientsPerJvm < 1 || files < 1 || durationNanos <= 0 || warmupNanos < 0
        || hostCores < 0) {
      throw new IllegalArgumentException("need clients, clients per JVM, files and duration > 0"
          + " and warm-up >= 0; got " + this);
    }
  }

  public Setup with(FaultPlan f) {
    return new Setup(datanodes, racks, clients, clientsPerJvm, clientsOnDataNodes, files,
        workload, f, hw, durationNanos, warmupNanos, seed, hostCores);
  }

  public Setup with(Workload w) {
    return new Setup(datanodes, racks, clients, clientsPerJvm, clientsOnDataNodes, files, w,
        faults, hw, durationNanos, warmupNanos, seed, hostCores);
  }

  public Setup with(Hardware h) {
    return new Setup(datanodes, racks, clients, clientsPerJvm, clientsOnDataNodes, files,
        workload, faults, h, durationNanos, warmupNanos, seed, hostCores);
  }
}
