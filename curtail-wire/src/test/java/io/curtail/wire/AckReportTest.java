package io.curtail.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.junit.jupiter.api.Test;

/** The report's bits round-trip, and leave what stock HDFS reads of a reply header untouched. */
class AckReportTest {
  @Test
  void versionOneRoundTripsTruncatedAndSaturatedSaysNothing() {
    int h = AckReport.withV1(0, 12_345_678, false);
    assertTrue(AckReport.present(h));
    assertEquals(1, AckReport.version(h));
    assertFalse(AckReport.busy(h));
    assertEquals(12_300_000, AckReport.downstreamNanos(h), "truncated to whole 100 µs");
    assertEquals(-1, AckReport.blockedNanos(h), "version 1 does not say");
    assertEquals(100_000_000_000L, AckReport.downstreamNanos(AckReport.withV1(0, 100_000_000_000L,
        false)));
    assertEquals(-1, AckReport.downstreamNanos(AckReport.withV1(0, 200_000_000_000L, true)),
        "saturated: only says it was long");
    assertTrue(AckReport.busy(AckReport.withV1(0, 5, true)));
    assertEquals(0, AckReport.downstreamNanos(AckReport.withV1(0, -7, false)));
    assertFalse(AckReport.present(0));
    assertEquals(-1, AckReport.downstreamNanos(0));
    assertFalse(AckReport.present(AckReport.busyOnly(0, true)));
    assertTrue(AckReport.busy(AckReport.busyOnly(0, true)));
  }

  @Test
  void versionTwoCarriesBothTimesToThreePercent() {
    // 12 345 µs: 2^13 <= 12 345 < 2^14, kept to 6 significant bits: 48 << 8 = 12 288 µs.
    int h = AckReport.with(0, 12_345_678, 7_900, true);
    assertEquals(2, AckReport.version(h));
    assertTrue(AckReport.busy(h));
    assertEquals(12_288_000, AckReport.downstreamNanos(h));
    assertEquals(7_000, AckReport.blockedNanos(h), "under 32 µs: whole microseconds");
    assertEquals(-1, AckReport.blockedNanos(AckReport.with(0, 5_000, -1, false)), "unknown");
    assertEquals(-1, AckReport.downstreamNanos(AckReport.with(0, Long.MAX_VALUE, 0, false)),
        "saturated");
    assertEquals(62L << 30, AckReport.decodeNanos(AckReport.UNKNOWN_CODE - 1) / 1000,
        "the longest time told");
    Random random = new Random(35);
    for (int i = 0; i < 100_000; i++) {
      long micros = (long) Math.exp(random.nextDouble() * Math.log(62L << 30));
      long decoded = AckReport.decodeNanos(AckReport.encodeMicros(micros)) / 1000;
      assertTrue(decoded <= micros && micros - decoded <= micros / 32,
          micros + " µs decoded as " + decoded);
      long more = micros + random.nextInt(1000);
      assertTrue(AckReport.decodeNanos(AckReport.encodeMicros(more)) / 1000 >= decoded,
          "monotone: " + more + " after " + micros);
    }
  }

  /** What the previous Curtail client (version 1) made of a header, copied from its decoder. */
  private static long versionOneClientReads(int header) {
    long units = (header & (((1 << 20) - 1) << 9)) >>> 9;
    return (header & (1 << 30)) != 0 && units < (1 << 20) - 1 ? units * 100_000 : -1;
  }

  @Test
  void aVersionOneClientSeesNoReportInAVersionTwoHeader() {
    for (long down : new long[] {0, 31_000, 5_000_000, 99_000_000_000L}) {
      for (long blocked : new long[] {-1, 0, 4_000_000}) {
        int h = AckReport.with(0, down, Math.min(blocked, down), true);
        assertEquals(-1, versionOneClientReads(h), "v2 header " + Integer.toHexString(h));
        assertTrue(AckReport.busy(h), "busy keeps its bit");
      }
    }
  }

  @Test
  void anAcksReportsAreReadReplyByReply() {
    int ok = PipelineAck.combineHeader(PipelineAck.ECN.DISABLED, Status.SUCCESS);
    PipelineAck ack = new PipelineAck(7, new int[] {
        AckReport.withV1(ok, 3_000_000, false), ok,
        AckReport.with(ok, 2_000_000, 1_000_000, true)});
    long[] out = new long[3];
    AckReport.downstreamTimes(ack, out);
    assertEquals(3_000_000, out[0]);
    assertEquals(-1, out[1], "no plugin: no report");
    assertEquals(1_984_000, out[2], "2 000 µs to 6 significant bits: 62 << 5");
    AckReport.blockedTimes(ack, out);
    assertEquals(-1, out[0], "version 1: not said");
    assertEquals(-1, out[1]);
    assertEquals(992_000, out[2]);
  }

  @Test
  void stockReadersSeeTheSameStatusEcnAndSlow() {
    for (Status status : new Status[] {Status.SUCCESS, Status.ERROR, Status.ERROR_CHECKSUM,
        Status.OOB_RESTART}) {
      for (PipelineAck.ECN ecn : PipelineAck.ECN.values()) {
        for (PipelineAck.SLOW slow : PipelineAck.SLOW.values()) {
          int stock = PipelineAck.combineHeader(ecn, status, slow);
          for (int reported : new int[] {AckReport.withV1(stock, 104_857_400_000L, true),
              AckReport.with(stock, 104_857_400_000L, 104_857_400_000L, true)}) {
            assertEquals(status, PipelineAck.getStatusFromHeader(reported));
            assertEquals(ecn, PipelineAck.getECNFromHeader(reported));
            assertEquals(slow, PipelineAck.getSLOWFromHeader(reported));
            assertEquals(stock, reported & ~AckReport.BITS, "stock bits kept");
          }
        }
      }
    }
  }

  @Test
  void aVersionTwoHeaderSurvivesTheAcksProtobuf() throws Exception {
    int ok = PipelineAck.combineHeader(PipelineAck.ECN.DISABLED, Status.SUCCESS);
    int h = AckReport.with(ok, 60_000_000_000L, 1_000_000, false);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    new PipelineAck(3, new int[] {h, ok}).write(out);
    PipelineAck read = new PipelineAck();
    read.readFields(new java.io.ByteArrayInputStream(out.toByteArray()));
    assertEquals(h, read.getHeaderFlag(0), "bit 31 is a uint32's, not a sign");
    assertEquals(Status.SUCCESS, PipelineAck.getStatusFromHeader(read.getHeaderFlag(0)));
  }

  @Test
  void anyHeaderDecodesToNothingOrTimesInRangeAndReencodesTheSame() {
    Random random = new Random(3535);
    for (int i = 0; i < 1_000_000; i++) {
      int h = random.nextInt();
      long down = AckReport.downstreamNanos(h);
      long blocked = AckReport.blockedNanos(h);
      int version = AckReport.version(h);
      assertTrue(down >= -1 && blocked >= -1, Integer.toHexString(h));
      if (version == 0) {
        assertEquals(-1, down);
        assertEquals(-1, blocked);
      } else if (version == 1) {
        assertEquals(-1, blocked);
      } else {
        assertEquals(h, AckReport.with(h, down, blocked, AckReport.busy(h)),
            "a version 2 header is what its decoded times encode to: " + Integer.toHexString(h));
      }
      assertEquals(h & ~AckReport.BITS, AckReport.busyOnly(h, false), "stock bits kept");
    }
  }
}
