package io.curtail.client.wire;

/** A connection another thread may cut at once, waking whoever is blocked on it. */
@FunctionalInterface
public interface Abortable {
  /** Cuts the connection; safe from any thread, any number of times. */
  void abort();
}
