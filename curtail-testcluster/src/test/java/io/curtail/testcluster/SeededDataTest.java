package io.curtail.testcluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SeededDataTest {
  private static final long SEED = 42;

  /** Word 0 of seed 42 as SplitMix64's finaliser makes it, stored least significant byte first. */
  @Test
  void theFirstWordIsTheMixOfTheSeedStoredLittleEndian() {
    long z = SEED * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    byte[] want = new byte[8];
    for (int i = 0; i < 8; i++) {
      want[i] = (byte) (z >>> (8 * i));
    }
    assertArrayEquals(want, SeededData.bytes(SEED, 8));
  }

  @Test
  void anyRangeIsThatRangeOfTheWholeFile() {
    byte[] whole = SeededData.bytes(SEED, 4096);
    for (int from = 0; from < 40; from++) {
      for (int len = 0; len < 40; len++) {
        byte[] got = new byte[len + 3];
        SeededData.fill(SEED, 1000 + from, got, 3, len);
        assertArrayEquals(Arrays.copyOfRange(whole, 1000 + from, 1000 + from + len),
            Arrays.copyOfRange(got, 3, 3 + len), "from " + (1000 + from) + ", " + len + " bytes");
      }
    }
  }

  @Test
  void aCheckNamesTheFirstOffsetThatDiffers() throws IOException {
    byte[] got = new byte[100];
    SeededData.fill(SEED, 7, got, 0, got.length);
    SeededData.check(got, got.length, SEED, 7, new byte[100], "f");
    got[60] ^= 1;
    got[80] ^= 1;
    IOException e = assertThrows(IOException.class,
        () -> SeededData.check(got, got.length, SEED, 7, new byte[100], "f"));
    assertEquals("f: byte 67 is " + got[60] + ", wrote " + (byte) (got[60] ^ 1), e.getMessage());
  }
}
