package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.util.Collections;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A cluster that encrypts data transfer (block access tokens on, SASL negotiated by Hadoop's
 * {@code SaslDataTransferClient}): Curtail's writer and reader both go through the handshake, and
 * what each writes the other side reads back byte for byte.
 */
class EncryptedTransferTest {
  @Test
  void curtailWritesAndReadsOverEncryptedTransfer() throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(1 << 20)
            .set("dfs.block.access.token.enable", "true")
            .set("dfs.encrypt.data.transfer", "true")
            .build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem curtail = c.curtailFileSystem(Collections.emptyMap())) {
      Path byCurtail = new Path("/enc/curtail");
      long length = 3 * (1 << 20) + 4321;
      try (FSDataOutputStream out = curtail.create(byCurtail)) {
        assertTrue(out.getWrappedStream() instanceof CurtailOutputStream);
        SeededData.write(out, 31, length);
      }
      SeededData.verify(stock, byCurtail, 31, length);
      c.awaitReplicas(stock, byCurtail, 3);

      Path byStock = new Path("/enc/stock");
      SeededData.create(stock, byStock, 32, length);
      try (FSDataInputStream in = curtail.open(byStock)) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
        SeededData.verify(in, 32, length, byStock.toString());
      }
      assertEquals(length, SeededData.verify(curtail, byCurtail, 31, length));
    }
  }

  /**
   * A client that fetched its data encryption key before the block keys rolled (a long-lived
   * one) is refused by DataNodes that no longer know the key it was made from: stock clears the
   * key and tries again once with a new one, and so must Curtail, rather than fail over to
   * replicas that refuse it alike.
   */
  @Test
  void aKeyTheDataNodesForgotIsFetchedAgainOnce() throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(1 << 20)
            .set("dfs.block.access.token.enable", "true")
            .set("dfs.encrypt.data.transfer", "true")
            // Connections kept between reads end soon, so the read after the roll connects anew.
            .set("dfs.datanode.socket.reuse.keepalive", "100")
            .build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem curtail = c.curtailFileSystem(Collections.emptyMap())) {
      Path p = new Path("/enc/rolled");
      long length = (1 << 20) + 999;
      SeededData.create(stock, p, 33, length);
      c.awaitReplicas(stock, p, 3);
      assertEquals(length, SeededData.verify(curtail, p, 33, length)); // fetches a key
      c.rollBlockKeysForgettingCurrent();
      Thread.sleep(500); // the connections kept from the first read are closed by now
      try (FSDataInputStream in = curtail.open(p)) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
        SeededData.verify(in, 33, length, p.toString());
      }
    }
  }
}
