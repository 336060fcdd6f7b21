package io.curtail.datanode.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;

/**
 * The DataNode side of the reports, fed thread names and downstream replies of any kind: the
 * block parsed from a DataNode thread's name, and the report written into the header of an ack
 * going upstream. Whatever comes, the hooks (which run inside the DataNode's receiver and
 * responder threads, where an exception would break the pipeline) throw nothing, leave every
 * other DataNode's header as it came, and never change a status: a report can only add to this
 * DataNode's own header.
 */
class AckReportsFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void reportsNeverBreakAnAckWhateverTheyMeet(FuzzedDataProvider in) {
    AtomicLong now = new AtomicLong(in.consumeLong());
    AckReports reports = new AckReports(now::get);
    String[] names = {
        "DataXceiver for client at /127.0.0.1:1234 [Receiving block "
            + "BP-1-127.0.0.1-1:blk_1073741825_1001]",
        "PacketResponder: BP-1-127.0.0.1-1:blk_1073741825_1001, type=HAS_DOWNSTREAM_IN_PIPELINE",
        in.consumeString(200)};
    for (int k = 0; k < 32 && in.remainingBytes() > 0; k++) {
      String name = names[in.consumeInt(0, names.length - 1)];
      now.addAndGet(in.consumeLong(-1_000_000L, 10_000_000_000L));
      if (in.consumeBoolean()) {
        reports.forwarding(name);
        continue;
      }
      int[] replies = in.consumeInts(in.consumeInt(0, 6));
      int[] before = replies.clone();
      reports.report(name, replies);
      for (int i = 1; i < replies.length; i++) {
        assertEquals(before[i], replies[i], "another DataNode's header");
      }
      if (replies.length > 0) {
        assertEquals(PipelineAck.getStatusFromHeader(before[0]),
            PipelineAck.getStatusFromHeader(replies[0]), "this DataNode's status");
      }
    }
  }
}
