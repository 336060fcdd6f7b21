package io.curtail.datanode.report;

/**
 * What this DataNode tells writing clients on its acks, over JMX as
 * {@code Hadoop:service=DataNode,name=CurtailReports-<port>}; an operator (or a co-located
 * service) sets {@code Busy} to keep Curtail clients from choosing it.
 */
public interface AckReportsMXBean {
  boolean isBusy();

  void setBusy(boolean busy);

  /** Acks that carried this DataNode's own service time. */
  long getReportsSent();

  /** The service time it last reported for itself, in microseconds; -1 before the first. */
  long getLastServiceMicros();

  /** Blocks being written through it that it is timing. */
  int getBlocksTimed();
}
