package io.curtail.datanode.report;

/**
 * What this DataNode tells writing clients on its acks, over JMX as
 * {@code Hadoop:service=DataNode,name=CurtailReports-<port>}; an operator (or a co-located
 * service) sets {@code Busy} to keep Curtail clients from choosing it.
 */
public interface AckReportsMXBean {
  /** Whether clients are told it is busy: set here, or its busy file exists. */
  boolean isBusy();

  /** Marks it busy (or not); a busy file, if it exists, keeps it busy regardless. */
  void setBusy(boolean busy);

  /** Acks that carried this DataNode's own service time. */
  long getReportsSent();

  /** The service time it last reported for itself, in microseconds; -1 before the first. */
  long getLastServiceMicros();

  /**
   * The service time it last reported for the last DataNode of a pipeline it forwards to (which
   * cannot time itself), in microseconds; -1 before the first.
   */
  long getLastDownstreamServiceMicros();

  /** Blocks being written through it that it is timing. */
  int getBlocksTimed();
}
