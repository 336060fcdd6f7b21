package io.curtail.compat33;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.LocalKeyStore;
import io.curtail.testcluster.SeededData;
import java.util.Map;
import org.apache.hadoop.crypto.CryptoInputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Curtail's reader on a Hadoop 3.3.6 class path and cluster, where it reads what stock's stream
 * read before (#33): a file in an encryption zone, under 3.3.6's crypto stream, and a stream with
 * checksum verification off. Each read whole, then by seek and by position, byte for byte.
 */
@Timeout(90)
class ReadsOnHadoop33Test {
  private static final int MIB = 1024 * 1024;

  @Test
  void encryptedAndChecksumOffFilesReadThroughCurtailExact() throws Exception {
    long length = 3L * MIB + 11;
    try (LocalKeyStore keys = LocalKeyStore.withKeys("compat33-key");
        FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(MIB)
            .set(LocalKeyStore.PROVIDER_PATH, keys.uri()).build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Map.of())) {
      Path zone = new Path("/zone");
      stock.mkdirs(zone);
      stock.createEncryptionZone(zone, "compat33-key");
      Path encrypted = new Path(zone, "f");
      SeededData.create(stock, encrypted, 1, length);
      try (FSDataInputStream in = fs.open(encrypted)) {
        assertTrue(in.getWrappedStream() instanceof CryptoInputStream
            && ((CryptoInputStream) in.getWrappedStream()).getWrappedStream()
                instanceof CurtailInputStream, in.getWrappedStream().getClass().getName());
        readAnywhere(in, 1, length);
      }
      Path plain = new Path("/plain");
      SeededData.create(stock, plain, 2, length);
      fs.setVerifyChecksum(false);
      try (FSDataInputStream in = fs.open(plain)) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
            in.getWrappedStream().getClass().getName());
        readAnywhere(in, 2, length);
      }
    }
  }

  /** Reads {@code in} whole, then across a block boundary by seek and by position. */
  private static void readAnywhere(FSDataInputStream in, long seed, long length)
      throws Exception {
    SeededData.verify(in, seed, length, "whole");
    byte[] got = new byte[4096];
    byte[] want = new byte[4096];
    in.seek(MIB - 1000);
    in.readFully(got);
    SeededData.fill(seed, MIB - 1000, want, 0, want.length);
    assertArrayEquals(want, got, "after a seek");
    in.readFully(2L * MIB - 7, got);
    SeededData.fill(seed, 2L * MIB - 7, want, 0, want.length);
    assertArrayEquals(want, got, "by position");
  }
}
