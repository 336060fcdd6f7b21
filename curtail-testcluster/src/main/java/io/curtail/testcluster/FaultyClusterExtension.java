package io.curtail.testcluster;

import io.curtail.client.CurtailDistributedFileSystem;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link FaultyCluster} for a test class, with a stock client for seeding and checking data:
 * started before the class's first test, stopped after its last, along with every file system
 * opened through it. Register it as a static field:
 *
 * <pre>
 *   &#64;RegisterExtension
 *   static final FaultyClusterExtension CLUSTER =
 *       new FaultyClusterExtension(b -&gt; b.dataNodes(4).blockSize(BLOCK));
 * </pre>
 */
public final class FaultyClusterExtension implements BeforeAllCallback, AfterAllCallback {
  private final UnaryOperator<FaultyCluster.Builder> setup;
  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private FaultyCluster cluster;
  private DistributedFileSystem stock;

  /** @param setup how the class's cluster is built, from {@link FaultyCluster#builder()} */
  public FaultyClusterExtension(UnaryOperator<FaultyCluster.Builder> setup) {
    this.setup = setup;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    cluster = setup.apply(FaultyCluster.builder()).build();
    opened.push(cluster);
    stock = cluster.stockFileSystem();
    opened.push(stock);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    Exception first = null;
    while (!opened.isEmpty()) {
      try {
        opened.pop().close(); // file systems first, the cluster last
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  public FaultyCluster cluster() {
    return cluster;
  }

  /** The class's stock client, for seeding files and checking what Curtail wrote. */
  public DistributedFileSystem stock() {
    return stock;
  }

  /**
   * A Curtail file system with {@code settings} that lives until the class ends; for one that
   * should end sooner, use {@link FaultyCluster#curtailFileSystem} in try-with-resources.
   */
  public CurtailDistributedFileSystem curtail(Map<String, String> settings) throws IOException {
    CurtailDistributedFileSystem fs = cluster.curtailFileSystem(settings);
    opened.push(fs);
    return fs;
  }
}
