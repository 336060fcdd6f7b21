package io.curtail.client.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.track.Pauses;
import io.curtail.client.wire.Abortable;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The hand-over between a primary packet read and its hedge, step by step: each test plays one
 * interleaving of the reader thread, the watchdog and the hedge's thread.
 */
class RaceTest {
  private static final long DEADLINE = 1_000_000;

  /** A connection that records being cut. */
  private static final class Connection implements Abortable {
    int aborts;

    @Override
    public void abort() {
      aborts++;
    }
  }

  private final Connection primary = new Connection();
  private final Connection hedge = new Connection();
  private final Race<Connection> race = new Race<>(0, DEADLINE, primary, 0, 4096);

  /** What the watchdog does: looks, and starts a hedge if the packet is overdue. */
  private boolean watchdogHedges(long now) {
    long seen = race.overdue(now);
    return seen >= 0 && race.startHedge(seen);
  }

  @Test
  void aThresholdLearntSinceThePacketBeganBringsItsDeadlineForward() {
    long learnt = DEADLINE / 4; // armed with the bootstrap value; the client has adapted since
    assertEquals(-1, race.overdue(learnt - 1, learnt), "one tick before the learnt threshold");
    assertTrue(race.overdue(learnt, learnt) >= 0, "at it");
    assertEquals(-1, race.overdue(DEADLINE - 1, 2 * DEADLINE), "a larger one never delays it");
    assertTrue(race.overdue(DEADLINE, 2 * DEADLINE) >= 0);
  }

  @Test
  void theClientsOwnPauseDoesNotCountAgainstTheDataNode() {
    long period = DEADLINE / 10;
    Pauses pauses = new Pauses(period);
    pauses.look(DEADLINE / 2);
    long late = DEADLINE / 2 + 4 * period;
    pauses.look(late); // paused from one period after the look before: 3 periods
    long paused = 3 * period;
    assertEquals(-1, race.overdue(DEADLINE + paused - 1, DEADLINE, pauses),
        "one tick before the deadline, the pause not counted");
    assertTrue(race.overdue(DEADLINE + paused, DEADLINE, pauses) >= 0, "at it");
    assertTrue(race.overdue(DEADLINE, DEADLINE) >= 0, "without the pauses, at the deadline");
  }

  @Test
  void overdueFromTheDeadlineOnAndOnlyWhileNoSideMoved() {
    assertEquals(-1, race.overdue(DEADLINE - 1), "one tick before the deadline");
    long seen = race.overdue(DEADLINE);
    assertTrue(seen >= 0, "at the deadline");
    assertTrue(race.startHedge(seen));
    assertEquals(-1, race.overdue(DEADLINE + 1), "a hedge already started");
    assertFalse(race.startHedge(seen), "only one hedge per packet");
  }

  @Test
  void anUnhedgedRaceServesTheNextPacketAndAStaleLookStartsNothing() {
    long stale = race.overdue(DEADLINE); // the watchdog looks at this packet...
    assertTrue(race.claimForPrimary()); // ...the primary delivers it...
    assertTrue(race.rearm(DEADLINE, DEADLINE, primary, 0, 8192), "no hedge joined: reused");
    assertFalse(race.startHedge(stale), "...and what it saw of the last packet starts nothing");
    assertEquals(Race.State.PENDING, race.state());
    assertEquals(8192, race.from());
    assertEquals(-1, race.overdue(DEADLINE), "the new packet has its own deadline");
    assertTrue(watchdogHedges(2 * DEADLINE));
    assertTrue(race.claimForPrimary(), "the primary still finishes first");
    assertFalse(race.rearm(2 * DEADLINE, DEADLINE, primary, 0, 16384), "a race a hedge joined is not reused");
  }

  @Test
  void primaryFirstBeforeAnyHedge() {
    assertTrue(race.claimForPrimary());
    assertEquals(Race.State.PRIMARY_WON, race.state());
    assertEquals(-1, race.overdue(DEADLINE + 1));
    assertFalse(watchdogHedges(DEADLINE + 1), "the watchdog came too late");
  }

  @Test
  void primaryWinsWhileTheHedgeConnects() {
    assertTrue(watchdogHedges(DEADLINE));
    assertTrue(race.publishHedge(hedge), "the hedge is connecting");
    assertTrue(race.claimForPrimary(), "the primary delivers first");
    race.cancelHedge();
    assertEquals(1, hedge.aborts, "the hedge's connection is cut at once");
    assertFalse(race.hedgeDelivered(new Race.Winner<>(hedge, 1, ByteBuffer.allocate(1))),
        "the cut hedge lost");
    assertEquals(Race.State.PRIMARY_WON, race.state());
    assertEquals(0, primary.aborts);
  }

  @Test
  void primaryWinsBeforeTheHedgePublishesItsConnection() {
    assertTrue(watchdogHedges(DEADLINE));
    assertTrue(race.claimForPrimary());
    race.cancelHedge(); // nothing to cut yet
    assertFalse(race.publishHedge(hedge), "the hedge learns it lost and closes its connection");
  }

  @Test
  void hedgeWins() throws Exception {
    assertTrue(watchdogHedges(DEADLINE));
    assertTrue(race.publishHedge(hedge));
    Race.Winner<Connection> w = new Race.Winner<>(hedge, 1, ByteBuffer.allocate(8));
    assertTrue(race.hedgeDelivered(w));
    race.hedgeDone();
    assertFalse(race.claimForPrimary(), "the primary, cut, finishes second");
    assertSame(w, race.awaitHedge(), "the reader carries on from the hedge");
    assertEquals(Race.State.HEDGE_WON, race.state());
  }

  @Test
  void hedgeFailsThenThePrimaryDelivers() {
    assertTrue(watchdogHedges(DEADLINE));
    race.hedgeFailed();
    race.hedgeDone();
    assertEquals(Race.State.HEDGE_FAILED, race.state());
    assertTrue(race.claimForPrimary());
    assertEquals(Race.State.PRIMARY_WON, race.state());
  }

  @Test
  void bothFailAndThePrimarysErrorIsTheReadersToHandle() {
    assertTrue(watchdogHedges(DEADLINE));
    race.hedgeFailed();
    race.hedgeDone();
    // The primary's read failed too: it still claims the race, so the reader (not a hedge
    // thread) fails over to the next replica with the primary's error.
    assertTrue(race.claimForPrimary());
    assertFalse(race.hedgeDelivered(new Race.Winner<>(hedge, 1, ByteBuffer.allocate(1))));
  }
}
