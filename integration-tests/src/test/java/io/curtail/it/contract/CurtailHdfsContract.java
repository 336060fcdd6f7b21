package io.curtail.it.contract;

import io.curtail.client.CurtailDistributedFileSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.contract.hdfs.HDFSContract;
import org.junit.rules.ExternalResource;

/**
 * Hadoop's own HDFS contract (its MiniDFSCluster and {@code contract/hdfs.xml} options), with the
 * file system under test swapped for Curtail's, enabled as users enable it, with smart hedging
 * and fail-fast on. Every read and write the contract suites make goes through Curtail's reader
 * and writer.
 */
public class CurtailHdfsContract extends HDFSContract {
  private FileSystem fs;

  public CurtailHdfsContract(Configuration conf) {
    super(conf);
  }

  /**
   * The contract's MiniDFSCluster for one suite: {@code @ClassRule public static final
   * ExternalResource CLUSTER = CurtailHdfsContract.cluster();} (each suite extends a different
   * Hadoop base class, so the lifecycle cannot be inherited).
   */
  public static ExternalResource cluster() {
    return new ExternalResource() {
      @Override
      protected void before() throws IOException {
        createCluster();
      }

      @Override
      protected void after() {
        try {
          destroyCluster();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  @Override
  public synchronized FileSystem getTestFileSystem() throws IOException {
    if (fs == null) {
      Configuration conf = new Configuration(getCluster().getConfiguration(0));
      conf.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
      conf.set("curtail.read.hedging", "smart");
      conf.set("curtail.write.failfast.enabled", "true");
      fs = FileSystem.newInstance(getCluster().getURI(), conf);
    }
    return fs;
  }
}
