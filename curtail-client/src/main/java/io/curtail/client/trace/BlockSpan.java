package io.curtail.client.trace;

/**
 * A span for one block read or written (OpenTelemetry's, or nothing): its events are what
 * changed the block's course, hedges and replacements. Thread-safe, as a hedge's events come from
 * the client's watchdog and hedge threads.
 */
public interface BlockSpan {
  /** A span that records nothing: OpenTelemetry is not on the class path. */
  BlockSpan NONE = new BlockSpan() {
    @Override
    public void event(String name, String... keysAndValues) {
    }

    @Override
    public void end(long bytes) {
    }
  };

  /** An event on the span, with string attributes given as key, value, key, value… */
  void event(String name, String... keysAndValues);

  /** The block is done, {@code bytes} read or written. */
  void end(long bytes);
}
