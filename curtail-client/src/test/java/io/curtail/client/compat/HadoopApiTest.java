package io.curtail.client.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * Both branches of each probe: the 3.4 one on this class path (Hadoop 3.4.2), the 3.3 one on a
 * protocol shaped as 3.3's and on the configuration alone. {@code compat-hadoop33} runs the 3.3
 * branches on a real 3.3.6 class path and cluster.
 */
class HadoopApiTest {
  /** What a NameNode proxy was asked: method name and arguments. */
  private final List<String> calls = new ArrayList<>();

  /** {@code ClientProtocol.renewLease} as Hadoop 3.3 declares it, and nothing else. */
  public interface Hadoop33Protocol {
    void renewLease(String clientName) throws IOException;
  }

  /** A protocol of a Hadoop with no lease renewal Curtail knows. */
  public interface UnknownProtocol {
    void renewLease(String clientName, int namespaces) throws IOException;
  }

  private ClientProtocol recordingNamenode() {
    return (ClientProtocol) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ClientProtocol.class}, (proxy, method, args) -> {
          calls.add(method.getName() + Arrays.toString(method.getParameterTypes()).replace(
              "class ", "") + Arrays.toString(args));
          return null;
        });
  }

  @Test
  void theBuildsHadoopHasThe34Forms() {
    assertEquals("renewLease=(String,List) maxPipelineRecoveryRetries=DfsClientConf",
        HadoopApi.probed());
  }

  @Test
  void on34ALeaseIsRenewedForEveryNamespace() throws IOException {
    HadoopApi.renewLease(recordingNamenode(), "DFSClient_7");
    assertEquals(
        List.of("renewLease[java.lang.String, interface java.util.List][DFSClient_7, null]"),
        calls);
  }

  @Test
  void on33ALeaseIsRenewedByClientNameAlone() throws IOException {
    HadoopApi.LeaseRenewal<Hadoop33Protocol> renewal =
        HadoopApi.leaseRenewalByName(Hadoop33Protocol.class);
    renewal.renew(name -> calls.add("renewLease(" + name + ")"), "DFSClient_7");
    assertEquals(List.of("renewLease(DFSClient_7)"), calls);
  }

  @Test
  void on33TheNameNodesRefusalReachesTheCallerAsItWas() {
    IOException refusal = new IOException("standby");
    HadoopApi.LeaseRenewal<Hadoop33Protocol> renewal =
        HadoopApi.leaseRenewalByName(Hadoop33Protocol.class);
    assertSame(refusal, assertThrows(IOException.class, () -> renewal.renew(name -> {
      throw refusal;
    }, "DFSClient_7")));
  }

  @Test
  void aProtocolWithNeitherFormIsRefusedByName() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> HadoopApi.leaseRenewalByName(UnknownProtocol.class));
    assertTrue(e.getMessage().startsWith(UnknownProtocol.class.getName()
        + " has neither renewLease(String, List) (Hadoop 3.4) nor renewLease(String)"),
        e.getMessage());
  }

  @Test
  void theProbeTellsWhichFormAClassHas() {
    assertTrue(HadoopApi.declares(ClientProtocol.class, "renewLease", String.class, List.class));
    assertFalse(HadoopApi.declares(ClientProtocol.class, "renewLease", String.class));
    assertTrue(HadoopApi.declares(Hadoop33Protocol.class, "renewLease", String.class));
    assertFalse(HadoopApi.declares(Hadoop33Protocol.class, "renewLease", String.class,
        List.class));
  }

  @Test
  void on34TheRecoveryLimitIsDfsClientConfs() {
    Configuration conf = new Configuration(false);
    assertEquals(5, HadoopApi.maxPipelineRecoveryRetries(new DfsClientConf(conf), conf));
    conf.setInt("dfs.client.pipeline.recovery.max-retries", 7);
    assertEquals(7, HadoopApi.maxPipelineRecoveryRetries(new DfsClientConf(conf), conf));
  }

  @Test
  void on33TheRecoveryLimitIsTheKeyOrWhat33StopsAfter() {
    Configuration conf = new Configuration(false);
    assertEquals(5, HadoopApi.maxPipelineRecoveryRetries(conf), "3.3's DataStreamer: 5, fixed");
    conf.setInt(HadoopApi.MAX_PIPELINE_RECOVERY_RETRIES_KEY, 7);
    assertEquals(7, HadoopApi.maxPipelineRecoveryRetries(conf));
  }
}
