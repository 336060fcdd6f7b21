package io.curtail.datanode.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.wire.AckReport;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
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

  @Test
  void theBlockIsNamedByBothThreads() {
    assertEquals("BP-1-127.0.0.1-1:blk_1073741825", AckReports.blockOf(RECEIVER));
    assertEquals("BP-1-127.0.0.1-1:blk_1073741825", AckReports.blockOf(RESPONDER));
    assertEquals(null, AckReports.blockOf("DataXceiver for client at /127.0.0.1:4 [Waiting]"));
  }

  @Test
  void aDataNodeReportsItsDownstreamTimeAndLeavesOtherHeadersAlone() {
    reports.forwarding(RECEIVER);
    now.addAndGet(4 * MS);
    int downstream = AckReport.withV1(SUCCESS, 2 * MS, true);
    int[] replies = {SUCCESS, downstream, SUCCESS};
    reports.report(RESPONDER, replies);
    assertEquals(3_968 * 1000, AckReport.downstreamNanos(replies[0]), "4 ms to 6 bits");
    assertFalse(AckReport.busy(replies[0]));
    assertEquals(downstream, replies[1]);
    assertEquals(SUCCESS, replies[2]);
    assertEquals(1, reports.getReportsSent());
    assertEquals(4000, reports.getLastDownstreamMicros());
  }

  @Test
  void itSaysHowLongItsForwardBlocked() {
    reports.forwarding(RECEIVER);
    now.addAndGet(MS); // the next DataNode's socket took the packet 1 ms after the write began
    reports.forwarded(RECEIVER);
    now.addAndGet(3 * MS);
    int[] replies = {SUCCESS, SUCCESS};
    reports.report(RESPONDER, replies);
    assertEquals(2, AckReport.version(replies[0]));
    assertEquals(3_968 * 1000, AckReport.downstreamNanos(replies[0]), "4 ms to 6 bits: 62 << 6");
    assertEquals(992 * 1000, AckReport.blockedNanos(replies[0]), "1 ms to 6 bits: 62 << 4");
  }

  @Test
  void anAckReadBeforeTheForwardReturnedSaysItsBlockedTimeIsUnknown() {
    reports.forwarding(RECEIVER);
    now.addAndGet(2 * MS);
    int[] first = {SUCCESS, SUCCESS};
    reports.report(RESPONDER, first);
    reports.forwarded(RECEIVER); // late: its packet was acked already, and nothing else is queued
    reports.forwarding(RECEIVER);
    now.addAndGet(20_000); // 20 µs
    reports.forwarded(RECEIVER);
    int[] second = {SUCCESS, SUCCESS};
    reports.report(RESPONDER, second);
    assertEquals(-1, AckReport.blockedNanos(first[0]));
    assertTrue(AckReport.downstreamNanos(first[0]) > 0);
    assertEquals(20_000, AckReport.blockedNanos(second[0]), "the late note went to nobody");
  }

  @Test
  void aDataNodeCanStillSpeakVersionOne() {
    reports.reportVersion1(true);
    reports.forwarding(RECEIVER);
    now.addAndGet(MS);
    reports.forwarded(RECEIVER);
    int[] replies = {SUCCESS, SUCCESS};
    reports.report(RESPONDER, replies);
    assertEquals(1, AckReport.version(replies[0]));
    assertEquals(MS, AckReport.downstreamNanos(replies[0]));
  }

  @Test
  void theLastDataNodeHasNothingToTime() {
    reports.setBusy(true);
    int[] replies = {SUCCESS};
    reports.report(RESPONDER, replies);
    assertFalse(AckReport.present(replies[0]));
    assertTrue(AckReport.busy(replies[0]));
  }

  @Test
  void anAckWithAFailureOrOutOfBandStatusTakesNoForward() {
    reports.forwarding(RECEIVER);
    int oob = PipelineAck.combineHeader(PipelineAck.ECN.DISABLED, Status.OOB_RESTART);
    int[] relayed = {SUCCESS, oob};
    reports.report(RESPONDER, relayed);
    assertFalse(AckReport.present(relayed[0]));
    assertEquals(oob, relayed[1]);
    now.addAndGet(3 * MS);
    int[] next = {SUCCESS, SUCCESS};
    reports.report(RESPONDER, next);
    assertEquals(2_944 * 1000, AckReport.downstreamNanos(next[0]), "the forward still pairs");
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
    int[] replies = {SUCCESS, SUCCESS};
    reports.report("some other thread", replies);
    assertFalse(AckReport.present(replies[0]));
    assertFalse(AckReport.present(replies[1]));
    assertEquals(0, reports.getBlocksTimed());
  }
}
