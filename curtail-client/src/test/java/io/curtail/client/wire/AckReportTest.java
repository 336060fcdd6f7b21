package io.curtail.client.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.junit.jupiter.api.Test;

/** The report's bits round-trip, and leave what stock HDFS reads of a reply header untouched. */
class AckReportTest {
  @Test
  void roundTripsAndSaturates() {
    int h = AckReport.with(0, 12_340_000, false);
    assertTrue(AckReport.present(h));
    assertFalse(AckReport.busy(h));
    assertEquals(12_300_000, AckReport.serviceNanos(h));
    assertEquals(AckReport.MAX_NANOS, AckReport.serviceNanos(AckReport.with(0, 10_000_000_000L, true)));
    assertTrue(AckReport.busy(AckReport.with(0, 5, true)));
    assertEquals(0, AckReport.serviceNanos(AckReport.with(0, -7, false)));
    assertFalse(AckReport.present(0));
    assertFalse(AckReport.present(AckReport.busyOnly(0, true)));
    assertTrue(AckReport.busy(AckReport.busyOnly(0, true)));
  }

  @Test
  void anAcksReportsAreReadReplyByReplyAndAnAbsurdOneTaintsTheAck() {
    int ok = PipelineAck.combineHeader(PipelineAck.ECN.DISABLED, Status.SUCCESS);
    PipelineAck ack = new PipelineAck(7, new int[] {
        AckReport.with(ok, 3_000_000, false), ok, AckReport.with(ok, 200_000, true)});
    long[] out = new long[3];
    assertTrue(AckReport.serviceTimes(ack, 10_000_000, out));
    assertEquals(3_000_000, out[0]);
    assertEquals(-1, out[1], "no plugin, or nothing new: no report");
    assertEquals(200_000, out[2]);
    assertFalse(AckReport.serviceTimes(ack, 2_000_000, out),
        "3 ms reported on a pipeline that carried packets for 2 ms");
  }

  @Test
  void stockReadersSeeTheSameStatusEcnAndSlow() {
    for (Status status : new Status[] {Status.SUCCESS, Status.ERROR, Status.ERROR_CHECKSUM,
        Status.OOB_RESTART}) {
      for (PipelineAck.ECN ecn : PipelineAck.ECN.values()) {
        for (PipelineAck.SLOW slow : PipelineAck.SLOW.values()) {
          int stock = PipelineAck.combineHeader(ecn, status, slow);
          int reported = AckReport.with(stock, 819_100_000, true);
          assertEquals(status, PipelineAck.getStatusFromHeader(reported));
          assertEquals(ecn, PipelineAck.getECNFromHeader(reported));
          assertEquals(slow, PipelineAck.getSLOWFromHeader(reported));
          assertEquals(stock, reported & ~AckReport.BITS, "stock bits kept");
        }
      }
    }
  }
}
