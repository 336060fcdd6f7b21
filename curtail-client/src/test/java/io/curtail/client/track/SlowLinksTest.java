package io.curtail.client.track;

import static io.curtail.client.track.SlowLinks.Whose.LINK;
import static io.curtail.client.track.SlowLinks.Whose.RECEIVER;
import static io.curtail.client.track.SlowLinks.Whose.SENDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
  void oneSlowLinkBetweenHealthyLookingEndsIsTheLinksOwnWithNoVoteEitherWay() {
    links.slow(A, B, 0);
    assertEquals(LINK, links.whose(A, B, false, 0));
  }

  @Test
  void aLinkIsKnownSlowOneWayWithinTheMemoryOnly() {
    links.slow(A, B, 0);
    assertEquals(true, links.knownSlow(A, B, MEMORY));
    assertEquals(false, links.knownSlow(B, A, 0), "the other way is another link");
    assertEquals(false, links.knownSlow(A, B, MEMORY + 1), "forgotten");
  }

  @Test
  void aReceiverSlowItselfHasItsBackPressureBlamedOnIt() {
    links.slow(A, B, 0);
    links.slow(A, C, 0); // even if A looks like the common end
    assertEquals(RECEIVER, links.whose(A, B, true, 0));
  }

  @Test
  void aDataNodeSlowToReadIsTheCommonEndOfTheLinksIntoIt() {
    // B's disk is slow: pipelines A->B and C->B both find their link slow.
    links.slow(A, B, 0);
    links.slow(C, B, 0);
    assertEquals(RECEIVER, links.whose(A, B, false, 0));
    assertEquals(RECEIVER, links.whose(C, B, false, 0));
  }

  @Test
  void aNicSlowOutboundIsTheCommonEndOfTheLinksOutOfIt() {
    // A's NIC is slow sending: the first pipeline blames B; the next, through C, finds A->C slow.
    links.slow(A, B, 0);
    links.slow(A, C, 10);
    assertEquals(SENDER, links.whose(A, C, false, 10));
    assertEquals(SENDER, links.whose(A, B, false, 10));
  }

  @Test
  void aDataNodeSlowBothWaysInOnePipelineIsItsMiddle() {
    // A -> B -> C with B's NIC slow: the link into B and the link out of it are both slow.
    links.slow(A, B, 0);
    links.slow(B, C, 0);
    assertEquals(RECEIVER, links.whose(A, B, false, 0), "B, not its healthy upstream neighbour");
    assertEquals(SENDER, links.whose(B, C, false, 0), "B, not its healthy downstream neighbour");
  }

  @Test
  void aSingleSlowLinkBetweenHealthyNodesIsNeitherEndsFault() {
    // Only A->B is slow; A sends fine to C, C fine to B: no vote, so the link's own.
    links.slow(A, B, 0);
    links.fast(A, C);
    links.fast(C, B);
    assertEquals(LINK, links.whose(A, B, false, 0));
  }

  @Test
  void bothWaysOfOneLinkCountOnePartner() {
    links.slow(A, B, 0);
    links.slow(B, A, 0);
    links.slow(A, D, 0);
    assertEquals(SENDER, links.whose(A, B, false, 0), "A has D besides B; B has nobody besides A");
  }

  @Test
  void votesAreForgottenAfterTheMemoryOrWhenFoundFast() {
    links.slow(C, B, 0);
    links.slow(A, B, MEMORY);
    assertEquals(RECEIVER, links.whose(A, B, false, MEMORY), "B: C->B is slow too");
    assertEquals(LINK, links.whose(A, B, false, MEMORY + 1), "C->B forgotten a tick after memory");
    links.slow(C, B, 2_000);
    links.slow(A, B, 2_000);
    links.fast(C, B);
    assertEquals(LINK, links.whose(A, B, false, 2_000), "C->B found fast: no vote for B");
  }

  @Test
  void boundedToTheMostRecentLinks() {
    SlowLinks small = new SlowLinks(MEMORY, 1);
    small.slow(C, B, 0);
    small.slow(A, B, 0);
    assertEquals(LINK, small.whose(A, B, false, 0), "C->B was dropped for A->B");
    assertThrows(IllegalArgumentException.class, () -> new SlowLinks(0, 1));
  }
}
