package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The paired comparison of interleaved batches. */
class SummaryTest {
  /** A batch of one round: one file per latency given, in milliseconds. */
  private static Batch batch(String mode, int round, double... ms) {
    List<FileSample> files = new ArrayList<>();
    for (int f = 0; f < ms.length; f++) {
      files.add(new FileSample("s", mode, round, 0, f, "read", 0, (long) (ms[f] * 1e6), 1));
    }
    return new Batch(files, 0, -1, 0, ms.length, 0, 0, 0, 0, 0, Collections.emptyList(), -1);
  }

  @Test
  void timeRatioPairsRoundsSoThatTheirDriftCancels() {
    List<Batch> base = new ArrayList<>();
    List<Batch> other = new ArrayList<>();
    for (int round = 0; round < 50; round++) {
      double drift = 1 + (round % 7) * 0.3; // the machine, 1 to 2.8 times as slow by round
      double noise = round % 2 == 0 ? 0.99 : 1.01;
      base.add(batch("base", round, 10 * drift, 20 * drift));
      other.add(batch("other", round, 10.5 * drift * noise, 21 * drift / noise));
    }
    double[] r = Summary.timeRatio(base, other);
    assertEquals(1.05, r[0], 0.002);
    assertTrue(r[1] <= r[0] && r[0] <= r[2], r[1] + " " + r[0] + " " + r[2]);
    assertTrue(r[2] - r[1] < 0.01, "paired rounds: drift does not widen the interval "
        + r[1] + " " + r[2]);
  }
}
