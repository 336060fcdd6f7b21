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

  /** Acks that carried its downstream time. */
  long getReportsSent();

  /**
   * The downstream time it last reported: from forwarding a packet to the next DataNode of a
   * pipeline to reading that DataNode's ack for it, in microseconds; -1 before the first.
   */
  long getLastDownstreamMicros();

  /** Blocks being written through it that it is timing. */
  int getBlocksTimed();
}
