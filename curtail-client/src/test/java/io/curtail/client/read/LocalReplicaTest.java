package io.curtail.client.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The size of the pooled buffers local pieces are read into. */
class LocalReplicaTest {
  private static final int MIB = 1024 * 1024;

  @Test
  void aLongRangeGetsTheReadersOwnBufferSize() {
    assertEquals(MIB, LocalReplica.pieceBytes(MIB, 100L * MIB));
  }

  @Test
  void aShortRangeGetsThePowerOfTwoAtOrAboveItsLength() {
    assertEquals(4096, LocalReplica.pieceBytes(MIB, 4096));
    assertEquals(8192, LocalReplica.pieceBytes(MIB, 4097));
    assertEquals(64 * 1024, LocalReplica.pieceBytes(MIB, 64 * 1024));
  }

  @Test
  void aTinyRangeGetsTheLeastBuffer() {
    assertEquals(4096, LocalReplica.pieceBytes(MIB, 1));
  }

  @Test
  void aReaderBufferThatIsNoPowerOfTwoIsRoundedUp() {
    assertEquals(MIB, LocalReplica.pieceBytes(1_000_000, 100L * MIB));
  }
}
