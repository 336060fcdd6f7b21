package io.curtail.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.junit.jupiter.api.Test;

/** The report's bits round-trip, and leave what stock HDFS reads of a reply header untouched. */
class AckReportTest {
  @Test
  void roundTripsTruncatedAndSaturatedSaysNothing() {
    int h = AckReport.with(0, 12_345_678, false);
    assertTrue(AckReport.present(h));
    assertFalse(AckReport.busy(h));
    assertEquals(12_300_000, AckReport.downstreamNanos(h), "truncated to whole 100 µs");
    assertEquals(100_000_000_000L, AckReport.downstreamNanos(AckReport.with(0, 100_000_000_000L,
        false)));
    assertEquals(-1, AckReport.downstreamNanos(AckReport.with(0, 200_000_000_000L, true)),
        "saturated: only says it was long");
    assertTrue(AckReport.busy(AckReport.with(0, 5, true)));
    assertEquals(0, AckReport.downstreamNanos(AckReport.with(0, -7, false)));
    assertFalse(AckReport.present(0));
    assertEquals(-1, AckReport.downstreamNanos(0));
    assertFalse(AckReport.present(AckReport.busyOnly(0, true)));
    assertTrue(AckReport.busy(AckReport.busyOnly(0, true)));
  }

  @Test
  void anAcksReportsAreReadReplyByReply() {
    int ok = PipelineAck.combineHeader(PipelineAck.ECN.DISABLED, Status.SUCCESS);
    PipelineAck ack = new PipelineAck(7, new int[] {
        AckReport.with(ok, 3_000_000, false), ok, AckReport.with(ok, 200_000, true)});
    long[] out = new long[3];
    AckReport.downstreamTimes(ack, out);
    assertEquals(3_000_000, out[0]);
    assertEquals(-1, out[1], "no plugin: no report");
    assertEquals(200_000, out[2]);
  }

  @Test
  void stockReadersSeeTheSameStatusEcnAndSlow() {
    for (Status status : new Status[] {Status.SUCCESS, Status.ERROR, Status.ERROR_CHECKSUM,
        Status.OOB_RESTART}) {
      for (PipelineAck.ECN ecn : PipelineAck.ECN.values()) {
        for (PipelineAck.SLOW slow : PipelineAck.SLOW.values()) {
          int stock = PipelineAck.combineHeader(ecn, status, slow);
          int reported = AckReport.with(stock, 104_857_400_000L, true);
          assertEquals(status, PipelineAck.getStatusFromHeader(reported));
          assertEquals(ecn, PipelineAck.getECNFromHeader(reported));
          assertEquals(slow, PipelineAck.getSLOWFromHeader(reported));
          assertEquals(stock, reported & ~AckReport.BITS, "stock bits kept");
        }
      }
    }
  }
}
