package io.curtail.testcluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;

/** Waiting, by looking again and again, until something a test needs of the cluster holds. */
final class Await {
  private Await() {}

  /** What a wait is still missing, or null once it has it. */
  interface Unmet {
    String check() throws IOException;
  }

  /**
   * Looks every {@code everyMs} until {@code unmet} says nothing is missing; after
   * {@code patience}, fails saying what still is.
   */
  static void until(Duration patience, long everyMs, Unmet unmet) throws IOException {
    long deadline = System.nanoTime() + patience.toNanos();
    for (String missing = unmet.check(); missing != null; missing = unmet.check()) {
      if (System.nanoTime() > deadline) {
        throw new IOException(missing + " after " + patience.toSeconds() + " s");
      }
      try {
        Thread.sleep(everyMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted");
      }
    }
  }
}
