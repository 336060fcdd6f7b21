package io.curtail.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's unbuffer contract, against Curtail's reader. */
public class TestCurtailContractUnbuffer extends AbstractContractUnbufferTest {
  @ClassRule
  public static final ExternalResource CLUSTER = CurtailHdfsContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CurtailHdfsContract(conf);
  }
}
