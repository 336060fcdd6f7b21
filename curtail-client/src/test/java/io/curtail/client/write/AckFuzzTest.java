package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.wire.AckReport;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;

/**
 * What the writer makes of a pipeline's acks, fed acks of any bytes: decoded as a pipeline
 * reads them ({@link Pipeline#readAck}), checked for shape and failures ({@link AckReader#firstFailure}), then the
 * DataNodes' reports of either version read from the headers ({@link AckReport}) and each DataNode's share of the
 * packet's time attributed ({@link WriteAttribution}), as {@code AckReader} does for each ack. A
 * malformed ack must end in an {@link IOException}, never another exception, and no ack may give
 * a DataNode or a link a share outside the packet's own time, whichever end a link is blamed on: no evidence is better than false evidence,
 * which could replace a healthy DataNode.
 */
class AckFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void acksOfAnyBytesAreRefusedOrAttributedWithinThePacketsTime(FuzzedDataProvider in) {
    int nodes = in.consumeInt(1, 4);
    WriteAttribution attribution = new WriteAttribution(nodes);
    long[] downstream = new long[nodes];
    long[] blocked = new long[nodes];
    long[] samples = new long[nodes];
    long[] links = new long[nodes];
    long sent = 0;
    for (int k = 0; k < 16 && in.remainingBytes() > 0; k++) {
      PipelineAck ack = new PipelineAck();
      try {
        Pipeline.readAck(new ByteArrayInputStream(in.consumeBytes(in.consumeInt(0, 96))), ack,
            "a fuzzed ack");
        if (AckReader.firstFailure(ack, nodes) >= 0) {
          continue; // a DataNode said it failed: the pipeline recovers without it
        }
      } catch (IOException malformed) {
        continue;
      }
      for (int i = 0; i < nodes; i++) {
        AckReport.busy(ack.getHeaderFlag(i));
      }
      AckReport.downstreamTimes(ack, downstream);
      AckReport.blockedTimes(ack, blocked);
      downstream[0] = ack.getDownstreamAckTimeNanos();
      for (int i = 0; i < nodes; i++) {
        attribution.blameLink(i, in.pickValue(WriteAttribution.LinkEnd.values())); // any vote
      }
      sent += in.consumeLong(0, 1_000_000_000L);
      long acked = sent + in.consumeLong(-1_000L, 1_000_000_000L);
      attribution.attribute(sent, acked, downstream, blocked, samples, links);
      for (int i = 0; i < nodes; i++) {
        assertTrue(samples[i] == WriteAttribution.NO_EVIDENCE
            || (samples[i] >= 0 && samples[i] <= acked - sent),
            "a share of " + samples[i] + " ns of a packet acked in " + (acked - sent) + " ns");
        assertTrue(links[i] == WriteAttribution.NO_EVIDENCE
            || (links[i] >= 0 && links[i] <= acked - sent),
            "a link's " + links[i] + " ns of a packet acked in " + (acked - sent) + " ns");
      }
    }
  }
}
