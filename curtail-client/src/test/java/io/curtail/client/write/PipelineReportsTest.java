package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.wire.AckReport;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.junit.jupiter.api.Test;

/** When a pipeline is judged on its DataNodes' reports, and which reports count. */
class PipelineReportsTest {
  private static final long MS = 1_000_000;
  private static final int OK = PipelineAck.combineHeader(PipelineAck.ECN.DISABLED, Status.SUCCESS);

  /** An ack whose replies report {@code millis} each, or nothing where negative. */
  private static PipelineAck ack(long... millis) {
    int[] replies = new int[millis.length];
    for (int i = 0; i < millis.length; i++) {
      replies[i] = millis[i] < 0 ? OK : AckReport.with(OK, millis[i] * MS, false);
    }
    return new PipelineAck(1, replies);
  }

  @Test
  void judgedOnReportsOnceEveryDataNodeHasReported() {
    PipelineReports r = new PipelineReports(3);
    assertFalse(r.record(ack(1, -1, 2), 0, 100 * MS), "the middle one has not reported yet");
    assertFalse(r.complete());
    assertTrue(r.record(ack(-1, 10, -1), 0, 200 * MS), "now all three have");
    assertTrue(r.complete());
    assertFalse(r.record(ack(1, 10, 2), 0, 300 * MS), "complete once, said once");
    assertEquals(2, r.windows()[0].totalRecorded());
    assertEquals(2, r.windows()[1].totalRecorded());
    assertEquals(2, r.windows()[2].totalRecorded());
  }

  @Test
  void aDataNodeWithoutThePluginKeepsThePipelineOnAttribution() {
    PipelineReports r = new PipelineReports(2);
    for (int i = 0; i < 50; i++) {
      assertFalse(r.record(ack(3, -1), 0, (i + 10) * MS));
    }
    assertFalse(r.complete());
  }

  @Test
  void anImpossibleReportIsIgnoredWithItsWholeAck() {
    PipelineReports r = new PipelineReports(2);
    assertFalse(r.record(ack(1, 1), 0, MS / 2),
        "1 ms reported by a pipeline that has carried packets for half of one");
    assertEquals(0, r.windows()[0].totalRecorded());
    assertTrue(r.record(ack(1, 1), 0, 5 * MS), "the pipeline's age counts from its first packet");
  }
}
