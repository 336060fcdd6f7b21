package io.curtail.client.track;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The vote on whose a slow link's time is, pipeline by pipeline as a JVM would see them. */
class SlowLinksTest {
  private static final long MEMORY = 1_000;
  private static final NodeId A = NodeId.of("a:1");
  private static final NodeId B = NodeId.of("b:1");
  private static final NodeId C = NodeId.of("c:1");
  private static final NodeId D = NodeId.of("d:1");

  private final SlowLinks links = new SlowLinks(MEMORY, 16);

  @Test
  void oneSlowLinkIsItsReceiversWithNoVoteEitherWay() {
    links.slow(A, B, 0);
    assertFalse(links.blameSender(A, B, 0));
  }

  @Test
  void aDataNodeSlowToReadIsTheCommonEndOfTheLinksIntoIt() {
    // B's disk is slow: pipelines A->B and C->B both find their link slow.
    links.slow(A, B, 0);
    links.slow(C, B, 0);
    assertFalse(links.blameSender(A, B, 0));
    assertFalse(links.blameSender(C, B, 0));
  }

  @Test
  void aNicSlowOutboundIsTheCommonEndOfTheLinksOutOfIt() {
    // A's NIC is slow sending: the first pipeline blames B; the next, through C, finds A->C slow.
    links.slow(A, B, 0);
    links.slow(A, C, 10);
    assertTrue(links.blameSender(A, C, 10));
    assertTrue(links.blameSender(A, B, 10));
  }

  @Test
  void aDataNodeSlowBothWaysInOnePipelineIsItsMiddle() {
    // A -> B -> C with B's NIC slow: the link into B and the link out of it are both slow.
    links.slow(A, B, 0);
    links.slow(B, C, 0);
    assertFalse(links.blameSender(A, B, 0), "B, not its healthy upstream neighbour");
    assertTrue(links.blameSender(B, C, 0), "B, not its healthy downstream neighbour");
  }

  @Test
  void aSingleSlowLinkBetweenHealthyNodesStaysTheLinks() {
    // Only A->B is slow; A sends fine to C, C fine to B: no vote moves the blame off B, an end.
    links.slow(A, B, 0);
    links.fast(A, C);
    links.fast(C, B);
    assertFalse(links.blameSender(A, B, 0));
  }

  @Test
  void bothWaysOfOneLinkCountOnePartner() {
    links.slow(A, B, 0);
    links.slow(B, A, 0);
    links.slow(A, D, 0);
    assertTrue(links.blameSender(A, B, 0), "A has D besides B; B has nobody besides A");
  }

  @Test
  void votesAreForgottenAfterTheMemoryOrWhenFoundFast() {
    links.slow(A, B, 0);
    links.slow(A, C, 0);
    assertTrue(links.blameSender(A, C, MEMORY));
    assertFalse(links.blameSender(A, C, MEMORY + 1), "A->B forgotten one tick after the memory");
    links.slow(A, B, 2_000);
    links.slow(A, C, 2_000);
    links.fast(A, B);
    assertFalse(links.blameSender(A, C, 2_000));
  }

  @Test
  void boundedToTheMostRecentLinks() {
    SlowLinks small = new SlowLinks(MEMORY, 1);
    small.slow(A, B, 0);
    small.slow(A, C, 0);
    assertFalse(small.blameSender(A, C, 0), "A->B was dropped for A->C");
    assertThrows(IllegalArgumentException.class, () -> new SlowLinks(0, 1));
  }
}
