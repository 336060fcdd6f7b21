package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The renewal period follows stock's renewer: half the RPC timeout, at most 30 s. */
class LeaseRenewalTest {
  @Test
  void halfTheRpcTimeoutWhenShorterThanHalfTheSoftLimit() {
    assertEquals(30_000, LeaseRenewal.periodMs(120_000)); // Hadoop's default timeout
    assertEquals(30_000, LeaseRenewal.periodMs(0)); // no timeout
    assertEquals(5_000, LeaseRenewal.periodMs(10_000));
    assertEquals(1_000, LeaseRenewal.periodMs(500)); // never under stock's 1 s tick
  }
}
