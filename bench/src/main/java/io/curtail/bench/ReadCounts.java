package io.curtail.bench;

import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * Bytes the benchmark's reads took straight from block files (short-circuit), summed over the
 * streams from their {@link ReadStatistics}, stock's and Curtail's alike: a batch's share is the
 * difference over it (batches of one mode run one at a time).
 */
final class ReadCounts {
  private static final LongAdder SHORT_CIRCUIT = new LongAdder();

  private ReadCounts() {
  }

  /** Adds what {@code in} read short-circuit; call once, as it is closed. */
  static void add(FSDataInputStream in) {
    if (in instanceof HdfsDataInputStream) {
      SHORT_CIRCUIT.add(((HdfsDataInputStream) in).getReadStatistics()
          .getTotalShortCircuitBytesRead());
    }
  }

  static long shortCircuit() {
    return SHORT_CIRCUIT.sum();
  }
}
