package io.curtail.client.read.striped;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Stripe ranges cut into pieces whose cells are read over one range; cells of 100 bytes. */
class StripePiecesTest {
  private static void assertPieces(int a, int b, int[]... want) {
    List<int[]> got = StripedInputStream.pieces(a, b, 100);
    assertEquals(want.length, got.size(), "pieces of [" + a + ", " + b + ")");
    for (int i = 0; i < want.length; i++) {
      assertArrayEquals(want[i], got.get(i), "piece " + i + " of [" + a + ", " + b + ")");
    }
  }

  @Test
  void partOfOneCellIsOnePiece() {
    assertPieces(120, 180, new int[] {120, 180});
    assertPieces(100, 200, new int[] {100, 200});
  }

  @Test
  void wholeCellsAreOnePiece() {
    assertPieces(0, 300, new int[] {0, 300});
  }

  @Test
  void aReadAcrossTwoCellsReadsEachOnlyWhereAsked() {
    // A 100-byte read from the middle of cell 0: 50 bytes of each, not two whole cells.
    assertPieces(50, 150, new int[] {50, 100}, new int[] {100, 150});
  }

  @Test
  void partialEndsAroundWholeCells() {
    assertPieces(50, 250, new int[] {50, 100}, new int[] {100, 200}, new int[] {200, 250});
    assertPieces(0, 250, new int[] {0, 200}, new int[] {200, 250});
    assertPieces(50, 300, new int[] {50, 100}, new int[] {100, 300});
  }
}
