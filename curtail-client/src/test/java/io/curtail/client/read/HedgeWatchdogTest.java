package io.curtail.client.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.ManualScheduler;
import io.curtail.client.wire.Abortable;
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
    final Race<Abortable> race = new Race<>(THRESHOLD, () -> { }, 0, 0);
    int hedges;

    @Override
    public Race<Abortable> pending() {
      return race;
    }

    @Override
    public void startHedge(Race<Abortable> r) {
      if (r.startHedge()) {
        hedges++;
      }
    }
  }

  @Test
  void hedgesAtTheThresholdAndNotBefore() {
    AtomicLong now = new AtomicLong();
    ManualScheduler scheduler = new ManualScheduler();
    CurtailConfig config = CurtailConfig.defaults();
    try (ReadContext ctx = new ReadContext(config, CurtailRuntime.create(now::get, config),
        SocketFactory.getDefault(), scheduler)) {
      assertEquals(config.readHedgingCheckNanos(), scheduler.periodNanos(0),
          "the watchdog runs every curtail.read.hedging.check.ms");
      Read read = new Read();
      ctx.watch(read);
      now.set(THRESHOLD - 1);
      scheduler.runAll();
      assertEquals(0, read.hedges, "one tick before the threshold: nothing");
      now.set(THRESHOLD);
      scheduler.runAll();
      assertEquals(1, read.hedges, "at the threshold: the hedge starts");
      now.set(THRESHOLD * 10);
      scheduler.runAll();
      assertEquals(1, read.hedges, "one hedge per packet");
      ctx.unwatch(read);
    }
    assertEquals(true, scheduler.closed(), "the context stops its watchdog");
  }
}
