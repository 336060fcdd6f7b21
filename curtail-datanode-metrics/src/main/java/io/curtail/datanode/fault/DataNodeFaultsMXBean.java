package io.curtail.datanode.fault;

/**
 * The fault controls of one DataNode over JMX, for chaos runs on real clusters (jconsole, jmxterm)
 * where tests would call {@link DataNodeFaults} directly.
 */
public interface DataNodeFaultsMXBean {
  /** Service time of the injected slow disk in microseconds; 0 when the disk is healthy. */
  long getDiskServiceMicros();

  double getDiskUtilisation();

  boolean isDiskSlowingReads();

  /** Packet writes that waited for the injected disk since the DataNode started. */
  long getDelayedWrites();

  /** Packet reads that waited for the injected disk since the DataNode started. */
  long getDelayedReads();

  /** Injects a slow disk; see {@link DiskFault}. */
  void slowDisk(long serviceMicros, double utilisation, boolean reads);

  /** Removes every fault this DataNode has. */
  void heal();
}
