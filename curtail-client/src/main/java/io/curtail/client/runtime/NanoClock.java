package io.curtail.client.runtime;

/**
 * Where Curtail's data paths read the time: {@link #SYSTEM} in production, a clock a test steps
 * by hand in unit tests, so that timing decisions are tested without sleeping.
 */
@FunctionalInterface
public interface NanoClock {
  /** {@link System#nanoTime()}. */
  NanoClock SYSTEM = System::nanoTime;

  /** Nanoseconds from an arbitrary origin, as {@link System#nanoTime()}. */
  long nanoTime();
}
