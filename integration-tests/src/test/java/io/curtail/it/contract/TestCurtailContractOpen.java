package io.curtail.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's open contract, against Curtail's reader. */
public class TestCurtailContractOpen extends AbstractContractOpenTest {
  @ClassRule
  public static final ExternalResource CLUSTER = CurtailHdfsContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CurtailHdfsContract(conf);
  }
}
