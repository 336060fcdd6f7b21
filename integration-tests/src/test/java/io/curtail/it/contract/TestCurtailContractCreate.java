package io.curtail.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's create contract, with every file written by Curtail's writer. */
public class TestCurtailContractCreate extends AbstractContractCreateTest {
  @ClassRule
  public static final ExternalResource CLUSTER = CurtailHdfsContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CurtailHdfsContract(conf);
  }
}
