package io.curtail.testcluster;

/**
 * An injected fault; {@link #close()} undoes it. Use with try-with-resources so a failing test
 * never leaves a fault behind for the next one.
 */
@FunctionalInterface
public interface Fault extends AutoCloseable {
  @Override
  void close();
}
