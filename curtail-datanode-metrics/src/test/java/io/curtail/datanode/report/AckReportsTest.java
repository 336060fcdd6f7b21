package io.curtail.datanode.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.wire.AckReport;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What goes into the ack headers, with thread names as stock DataNodes set them. */
class AckReportsTest {
  private static final long MS = 1_000_000;
  private static final String BLOCK = "BP-1-127.0.0.1-1:blk_1073741825_1001";
  private static final String RECEIVER = "DataXceiver for client DFSClient_1 at /127.0.0.1:4 "
      + "[Receiving block " + BLOCK + "]";
  private static final String RESPONDER = "PacketResponder: " + BLOCK
      + ", type=HAS_DOWNSTREAM_IN_PIPELINE, downstreams=1:[127.0.0.1:3]";
  private static final int SUCCESS = 0; // status SUCCESS, no ECN, no SLOW

  private final AtomicLong now = new AtomicLong();
  private final AckReports reports = new AckReports(now::get);

  private void forwardAndWrite(long writeMs) {
    reports.forwarding(RECEIVER);
    reports.mirrored(RECEIVER);
    now.addAndGet(writeMs * MS);
    reports.wroteLocally(RECEIVER);
  }

  @Test
  void theBlockIsNamedByBothThreads() {
    assertEquals("BP-1-127.0.0.1-1:blk_1073741825", AckReports.blockOf(RECEIVER));
    assertEquals("BP-1-127.0.0.1-1:blk_1073741825", AckReports.blockOf(RESPONDER));
    assertEquals(null, AckReports.blockOf("DataXceiver for client at /127.0.0.1:4 [Waiting]"));
  }

  @Test
  void aMiddleDataNodeReportsItselfAndLeavesItsDownstreamAlone() {
    for (int i = 0; i < PacketTimings.WARM_UP; i++) {
      forwardAndWrite(1);
    }
    forwardAndWrite(4);
    int[] replies = {SUCCESS, SUCCESS, AckReport.with(SUCCESS, 2 * MS, false)};
    reports.report(RESPONDER, replies);
    assertTrue(AckReport.present(replies[0]));
    assertEquals(4 * MS, AckReport.serviceNanos(replies[0]));
    assertFalse(AckReport.present(replies[1]), "not the last: its own report is its business");
    assertEquals(2 * MS, AckReport.serviceNanos(replies[2]));
    assertEquals(1, reports.getReportsSent());
  }

  @Test
  void aPenultimateDataNodeTimesTheLastOneAndKeepsItsBusyFlag() {
    for (int i = 0; i <= PacketTimings.WARM_UP; i++) {
      forwardAndWrite(0);
    }
    for (int i = 0; i < PacketTimings.WARM_UP; i++) {
      now.addAndGet(5 * MS);
      int[] first = {SUCCESS, AckReport.busyOnly(SUCCESS, true)};
      reports.report(RESPONDER, first);
      assertFalse(AckReport.present(first[1]), "warming up: not reported");
    }
    now.addAndGet(7 * MS);
    int[] second = {SUCCESS, AckReport.busyOnly(SUCCESS, true)};
    reports.report(RESPONDER, second);
    assertTrue(AckReport.present(second[1]));
    assertEquals(7 * MS, AckReport.serviceNanos(second[1]));
    assertTrue(AckReport.busy(second[1]));
    assertEquals(7000, reports.getLastDownstreamServiceMicros());
  }

  @Test
  void busyFromJmxOrFileGoesOnEveryAck() {
    int[] replies = {SUCCESS};
    reports.report(RESPONDER, replies);
    assertFalse(AckReport.busy(replies[0]));
    reports.busyFileSeen(true);
    reports.report(RESPONDER, replies);
    assertTrue(AckReport.busy(replies[0]));
    assertTrue(reports.isBusy());
    reports.busyFileSeen(false);
    reports.setBusy(true);
    replies[0] = SUCCESS;
    reports.report(RESPONDER, replies);
    assertTrue(AckReport.busy(replies[0]));
    assertEquals(SUCCESS, replies[0] & ~AckReport.BITS, "stock bits untouched");
  }

  @Test
  void threadsThatDoNotNameABlockAreNotTimed() {
    reports.forwarding("some other thread");
    reports.wroteLocally("some other thread");
    int[] replies = {SUCCESS, SUCCESS};
    reports.report("some other thread", replies);
    assertFalse(AckReport.present(replies[0]));
    assertFalse(AckReport.present(replies[1]));
    assertEquals(0, reports.getBlocksTimed());
  }
}
