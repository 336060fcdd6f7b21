package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Pipelines each placement gives, on five DataNodes with dn0 faulty (and dn1 its link's end). */
class PlacementTest {
  @Test
  void theFaultyDataNodeTakesItsPlaceAndTheHealthyOnesRotate() {
    assertNull(Placement.NAMENODE.pipeline(0, 5, 0, 1));
    assertArrayEquals(new int[] {0, 1, 2}, Placement.FIRST.pipeline(0, 5, 0, 1));
    assertArrayEquals(new int[] {2, 0, 3}, Placement.MIDDLE.pipeline(1, 5, 0, 1));
    assertArrayEquals(new int[] {4, 1, 0}, Placement.LAST.pipeline(3, 5, 0, 1));
    assertArrayEquals(new int[] {0, 1, 2}, Placement.LINK.pipeline(0, 5, 0, 1));
    assertArrayEquals(new int[] {0, 1, 4}, Placement.LINK.pipeline(2, 5, 0, 1));
    assertArrayEquals(new int[] {0, 1, 2}, Placement.LINK.pipeline(3, 5, 0, 1));
  }

  @Test
  void scenariosNameTheirFaultyDataNodesAndLinkEnds() {
    assertArrayEquals(new int[] {0, 1}, Scenarios.byName("write-slow-link").faultyDataNodes());
    assertArrayEquals(new int[] {0}, Scenarios.byName("write-slow-last").faultyDataNodes());
    assertArrayEquals(new int[0], Scenarios.byName("healthy").faultyDataNodes());
  }
}
