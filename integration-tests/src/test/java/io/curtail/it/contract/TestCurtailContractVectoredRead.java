package io.curtail.it.contract;

import static org.junit.Assert.assertTrue;

import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.read.striped.StripedInputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.rules.ExternalResource;
import org.junit.runners.Parameterized;

/**
 * Hadoop's vectored-read contract, against Curtail's reader, with heap buffers only. Curtail's
 * streams have no vectored read of their own: Hadoop's default reads every range with
 * {@code readFully(position, byte[], ...)}, into a direct buffer through a heap copy, so the
 * parent's second run, with direct buffers, would read exactly as this one does (and cost the
 * build 45 s of 1 KiB blocks). {@link #curtailHasNoVectoredReadOfItsOwn} keeps that true.
 */
public class TestCurtailContractVectoredRead extends AbstractContractVectoredReadTest {
  public TestCurtailContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  /** Hides the parent's parameters ({@code direct} and {@code array}). */
  @Parameterized.Parameters(name = "Buffer type : {0}")
  public static List<String> params() {
    return Arrays.asList("array");
  }

  @ClassRule
  public static final ExternalResource CLUSTER = CurtailHdfsContract.cluster();

  @BeforeClass
  public static void curtailHasNoVectoredReadOfItsOwn() {
    for (Class<?> stream : new Class<?>[] {CurtailInputStream.class, StripedInputStream.class}) {
      for (Class<?> c = stream; c != null; c = c.getSuperclass()) {
        assertTrue(c + " reads vectored ranges itself: run the contract with direct buffers too",
            Arrays.stream(c.getDeclaredMethods())
                .noneMatch(m -> m.getName().equals("readVectored")));
      }
    }
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CurtailHdfsContract(conf);
  }
}
