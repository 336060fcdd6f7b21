package io.curtail.it.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;

/** Hadoop's vectored-read contract, against Curtail's reader. */
public class TestCurtailContractVectoredRead extends AbstractContractVectoredReadTest {
  /** Run once per buffer type the parent's parameters name (heap and direct). */
  public TestCurtailContractVectoredRead(String bufferType) {
    super(bufferType);
  }
  @ClassRule
  public static final ExternalResource CLUSTER = CurtailHdfsContract.cluster();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CurtailHdfsContract(conf);
  }
}
