package io.curtail.client.trace;

/**
 * Spans for blocks read and written, through the OpenTelemetry API where the application has it
 * on its class path (with no SDK its calls record nothing; HTrace, which the paper's design named,
 * is retired). Without it this class never touches an OpenTelemetry type, so the client loads
 * and runs as before. A block's span is a child of the caller's current span: the thread that
 * reads, or for a write the thread that created the stream (blocks are written on another).
 */
public final class Tracing {
  private static final boolean PRESENT = present();

  private Tracing() {
  }

  private static boolean present() {
    try {
      Class.forName("io.opentelemetry.api.GlobalOpenTelemetry", false,
          Tracing.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The calling thread's trace context, to parent spans begun elsewhere; null without it. */
  public static Object currentContext() {
    return PRESENT ? OpenTelemetrySpan.currentContext() : null;
  }

  /**
   * A span named {@code name} for block {@code blockId} of {@code file}, a child of
   * {@code parent} (from {@link #currentContext}) or, if null, of the calling thread's context,
   * begun {@code agoNanos} ago (a block written begins with its allocation, before its id).
   */
  public static BlockObserver start(String name, Object parent, String file, long blockId,
      long agoNanos) {
    return PRESENT ? OpenTelemetrySpan.start(name, parent, file, blockId, agoNanos)
        : BlockObserver.NONE;
  }
}
