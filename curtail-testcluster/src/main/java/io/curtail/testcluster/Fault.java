package io.curtail.testcluster;

/**
 * An injected fault; {@link #close()} undoes it. Use with try-with-resources so a failing test
 * never leaves a fault behind for the next one.
 */
@FunctionalInterface
public interface Fault extends AutoCloseable {
  @Override
  void close();

  /** One fault made of {@code faults}; closing it undoes each, the last injected first. */
  static Fault all(java.util.List<? extends Fault> faults) {
    return () -> {
      RuntimeException first = null;
      for (int i = faults.size() - 1; i >= 0; i--) {
        try {
          faults.get(i).close();
        } catch (RuntimeException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      if (first != null) {
        throw first;
      }
    };
  }
}
