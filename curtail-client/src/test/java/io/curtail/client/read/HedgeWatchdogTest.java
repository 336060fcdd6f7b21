package io.curtail.client.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.ManualScheduler;
import io.curtail.client.wire.Abortable;
import io.curtail.client.wire.ConnectionPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.SocketFactory;
import org.junit.jupiter.api.Test;

/**
 * The client's hedge watchdog, on a fake clock and a scheduler run by hand: a packet is hedged
 * once its threshold has passed, not a tick earlier, and once only.
 */
class HedgeWatchdogTest {
  private static final long THRESHOLD = TimeUnit.MILLISECONDS.toNanos(50);

  /** A read whose packet started at time 0 with a 50 ms threshold. */
  private static final class Read implements ReadContext.Watched<Abortable> {
    final Race<Abortable> race = new Race<>(0, THRESHOLD, () -> { }, 0, 0);
    int hedges;

    @Override
    public Race<Abortable> pending() {
      return race;
    }

    @Override
    public long thresholdNowNanos() {
      return THRESHOLD;
    }

    @Override
    public void startHedge(Race<Abortable> r, long seen) {
      if (r.startHedge(seen)) {
        hedges++;
      }
    }
  }

  private final AtomicLong now = new AtomicLong();
  private final ManualScheduler scheduler = new ManualScheduler();
  private final CurtailConfig config = CurtailConfig.defaults();
  private final long period = config.readHedgingCheckNanos();

  private ReadContext context() {
    return new ReadContext(config, CurtailRuntime.create(now::get, config),
        SocketFactory.getDefault(), new ConnectionPool(now::get, 16, 3_000_000_000L), scheduler);
  }

  /** Steps the clock to {@code t} a watchdog period at a time, running the watchdog each time. */
  private void tickUntil(long t) {
    while (now.get() + period <= t) {
      now.addAndGet(period);
      scheduler.runAll();
    }
    now.set(t);
    scheduler.runAll();
  }

  @Test
  void hedgesAtTheThresholdAndNotBefore() {
    try (ReadContext ctx = context()) {
      assertEquals(period, scheduler.periodNanos(0),
          "the watchdog runs every curtail.read.hedging.check.ms");
      Read read = new Read();
      ctx.watch(read);
      tickUntil(THRESHOLD - 1);
      assertEquals(0, read.hedges, "one tick before the threshold: nothing");
      tickUntil(THRESHOLD);
      assertEquals(1, read.hedges, "at the threshold: the hedge starts");
      tickUntil(THRESHOLD * 10);
      assertEquals(1, read.hedges, "one hedge per packet");
      ctx.unwatch(read);
    }
    assertTrue(scheduler.closed(), "the context stops its watchdog");
  }

  @Test
  void aPausedClientJudgesAPacketOnTheRestOfItsWait() {
    try (ReadContext ctx = context()) {
      Read read = new Read();
      ctx.watch(read);
      tickUntil(THRESHOLD / 2);
      long pause = THRESHOLD * 4;
      now.addAndGet(pause); // the watchdog itself runs a long while late
      scheduler.runAll();
      assertEquals(0, read.hedges, "the late tick blames nobody");
      // Paused from the tick due one period after the last until now: the packet has waited
      // THRESHOLD / 2 + period of its own.
      long due = now.get() + THRESHOLD / 2 - period;
      tickUntil(due - 1);
      assertEquals(0, read.hedges, "one tick before the threshold, the pause not counted");
      tickUntil(due);
      assertEquals(1, read.hedges, "at it");
    }
  }
}
