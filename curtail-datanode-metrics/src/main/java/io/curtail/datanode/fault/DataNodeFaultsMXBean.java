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

  /** Packets forwarded down a pipeline that waited for an injected network fault. */
  long getDelayedForwards();

  /** Packets sent to readers that waited for an injected slow NIC. */
  long getDelayedSends();

  /** Packet-handling steps (receive, ack, send) that waited for an injected starved CPU. */
  long getStarvedSteps();

  /** Every fault in force in words, or "none". */
  String getFaults();

  /** Makes every packet the DataNode sends (forwarded or to readers) cross a link this fast. */
  void slowNic(long bytesPerSecond);

  /** Holds every packet the DataNode sends (forwarded or to readers) this long. */
  void delayNic(long perPacketMicros);

  /** Makes packets forwarded to {@code peer} (its ip:port) only cross a link this fast. */
  void slowLink(String peer, long bytesPerSecond);

  /** Holds packets forwarded to {@code peer} (its ip:port) only, this long each. */
  void delayLink(String peer, long perPacketMicros);

  /** Delays every packet-handling step {@code meanMicros × (1 ± jitter)}; see CpuStarvation. */
  void starveCpu(long meanMicros, double jitter);

  /** Makes every fault act only for {@code slowMillis}, then rest {@code healthyMillis}, again. */
  void flap(long slowMillis, long healthyMillis);

  /** Removes every fault this DataNode has. */
  void heal();
}
