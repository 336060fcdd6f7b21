package io.curtail.client.trace;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.util.concurrent.TimeUnit;

/**
 * A block's span on OpenTelemetry, its events what changed the block's course; loaded only when
 * {@link Tracing} found the API. Thread-safe, as OpenTelemetry's spans are.
 */
final class OpenTelemetrySpan implements BlockObserver {
  private final Span span;

  private OpenTelemetrySpan(Span span) {
    this.span = span;
  }

  static Object currentContext() {
    return Context.current();
  }

  static BlockObserver start(String name, Object parent, String file, long blockId,
      long agoNanos) {
    Context context = parent instanceof Context ? (Context) parent : Context.current();
    return new OpenTelemetrySpan(GlobalOpenTelemetry.getTracer("io.curtail.client")
        .spanBuilder(name).setParent(context)
        .setAttribute("hdfs.file", file)
        .setAttribute("hdfs.block.id", blockId)
        .setStartTimestamp(TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis()) - agoNanos,
            TimeUnit.NANOSECONDS)
        .startSpan());
  }

  @Override
  public void hedgeTried(String from, String to, long offset, long thresholdNanos) {
    span.addEvent("hedge", Attributes.builder().put("from", from).put("to", to)
        .put("offset", offset).put("threshold.ms", TimeUnit.NANOSECONDS.toMillis(thresholdNanos))
        .build());
  }

  @Override
  public void hedgeWon(String to) {
    span.addEvent("hedge.won", Attributes.builder().put("to", to).build());
  }

  @Override
  public void replaced(int position, String replaced, String by, String reason,
      String evidence) {
    span.addEvent("replacement", Attributes.builder().put("position", position)
        .put("replaced", replaced).put("by", by).put("reason", reason).put("evidence", evidence)
        .build());
  }

  @Override
  public void rebuilt(long nanos, int aborts) {
    span.addEvent("rebuild", Attributes.builder()
        .put("ms", TimeUnit.NANOSECONDS.toMillis(nanos)).put("aborted", aborts).build());
  }

  @Override
  public void failed(String reason) {
    span.setStatus(StatusCode.ERROR, reason);
  }

  @Override
  public void done(long bytes, long nowNanos) {
    span.setAttribute("hdfs.bytes", bytes);
    span.end();
  }
}
