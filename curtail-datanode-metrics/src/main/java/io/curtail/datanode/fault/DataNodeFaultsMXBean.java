package io.curtail.datanode.fault;

/**
 * The fault controls of one DataNode over JMX, for chaos runs on real clusters (jconsole, jmxterm)
 * where tests would call {@link DataNodeFaults} directly.
 */
public interface DataNodeFaultsMXBean {
  /** The injected disk fault in words, or "none". */
  String getDiskFault();

  /** Service time of the injected slow disk in microseconds; 0 when it has none. */
  long getDiskServiceMicros();

  /** How long each injected stall lasts in milliseconds; 0 when it has none. */
  long getStallMillis();

  double getDiskUtilisation();

  boolean isDiskSlowingReads();

  /** Packet writes that waited for the injected disk since the DataNode started. */
  long getDelayedWrites();

  /** Packet reads and replica opens that waited for the injected disk since it started. */
  long getDelayedReads();

  /** Injects a slow disk; see {@link DiskFault}. */
  void slowDisk(long serviceMicros, double utilisation, boolean reads);

  /** Makes every opening of a replica for a read queue for a FIFO disk with this service time. */
  void slowOpens(long serviceMicros);

  /** Freezes every disk access for {@code lastingMillis} once every {@code everyMillis}. */
  void stall(long everyMillis, long lastingMillis);

  /** Fails every packet write from now on as a full disk does ("No space left on device"). */
  void fill();

  boolean isDiskFull();

  /** Removes every fault this DataNode has. */
  void heal();
}
