package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.junit.jupiter.api.Test;

/** Stock's replace-on-failure rules as Curtail reads them, case by case. */
class ReplaceOnFailureTest {
  private static final short THREE = 3;

  private static ReplaceOnFailure rules(String... keyValues) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set("dfs.client.block.write.replace-datanode-on-failure." + keyValues[i],
          keyValues[i + 1]);
    }
    return ReplaceOnFailure.from(conf);
  }

  private static DatanodeInfo[] nodes(int n) {
    DatanodeInfo[] out = new DatanodeInfo[n];
    for (int i = 0; i < n; i++) {
      out[i] = new DatanodeInfo.DatanodeInfoBuilder().setNodeID(
          new DatanodeID("127.0.0.1", "dn" + i, "uuid-" + i, 9866 + i, 9864, 9865, 9867))
          .build();
    }
    return out;
  }

  @Test
  void defaultPolicyWantsAReplacementForAppendedOrHflushedBlocksOrHalfTheReplicasGone() {
    ReplaceOnFailure r = rules();
    assertFalse(r.required(THREE, nodes(2), false, false), "one of three gone: 2 > 3/2");
    assertTrue(r.required(THREE, nodes(2), true, false), "appended");
    assertTrue(r.required(THREE, nodes(2), false, true), "hflushed");
    assertTrue(r.required(THREE, nodes(1), false, false), "two of three gone: 1 <= 3/2");
    assertFalse(r.required((short) 2, nodes(1), true, true), "replication below 3: never");
    assertFalse(r.required(THREE, nodes(3), true, true), "nothing missing");
  }

  @Test
  void policiesAlwaysAndNever() {
    assertTrue(rules("policy", "ALWAYS").required((short) 2, nodes(1), false, false));
    assertFalse(rules("policy", "NEVER").required(THREE, nodes(1), true, true));
    assertFalse(rules("enable", "false").required(THREE, nodes(1), true, true));
  }

  @Test
  void aWriteGoesOnShortOnlyWhenBestEffortOrMinReplicationAllow() {
    assertFalse(rules().goesOnWith(2), "the defaults: fail");
    assertTrue(rules("best-effort", "true").goesOnWith(1));
    assertTrue(rules("min-replication", "2").goesOnWith(2));
    assertFalse(rules("min-replication", "2").goesOnWith(1));
  }

  @Test
  void aNewBlockGoesOnWithoutAFailedDataNodeOnlyAtMinReplicationOrMore() {
    assertFalse(rules().createsWith(2), "min-replication 0: the block is given back");
    assertTrue(rules("min-replication", "2").createsWith(2));
    assertFalse(rules("min-replication", "2").createsWith(1));
  }
}
