package io.curtail.bench;

import java.lang.reflect.Field;
import java.util.concurrent.ThreadPoolExecutor;
import org.apache.hadoop.hdfs.DFSClient;

/**
 * Undoes stock hedging between modes. Stock HDFS keeps its hedged-read thread pool in a static of
 * {@link DFSClient}, and a client hedges whenever that pool exists: once one client in a JVM turns
 * hedged reads on, every DFSClient in the JVM hedges, whatever its own configuration says (seen in
 * Hadoop 3.4.2). A benchmark that runs {@code stock} after {@code stock-hedged} in one JVM must
 * therefore drop the pool, or {@code stock} silently hedges too.
 */
final class StockHedgedPool {
  private StockHedgedPool() {}

  static void reset() {
    try {
      Field f = DFSClient.class.getDeclaredField("HEDGED_READ_THREAD_POOL");
      f.setAccessible(true);
      synchronized (DFSClient.class) {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) f.get(null);
        if (pool != null) {
          pool.shutdown();
          f.set(null, null);
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot reset stock HDFS's JVM-wide hedged-read pool, so"
          + " stock would hedge after stock-hedged ran; run the two modes in separate runs", e);
    }
  }
}
