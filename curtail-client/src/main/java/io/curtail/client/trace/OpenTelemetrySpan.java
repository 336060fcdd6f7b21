package io.curtail.client.trace;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/** A {@link BlockSpan} on OpenTelemetry; loaded only when {@link Tracing} found the API. */
final class OpenTelemetrySpan implements BlockSpan {
  private final Span span;

  private OpenTelemetrySpan(Span span) {
    this.span = span;
  }

  static Object currentContext() {
    return Context.current();
  }

  static BlockSpan start(String name, Object parent, String file, long blockId) {
    Tracer tracer = GlobalOpenTelemetry.getTracer("io.curtail.client");
    Context context = parent instanceof Context ? (Context) parent : Context.current();
    Span span = tracer.spanBuilder(name).setParent(context)
        .setAttribute("hdfs.file", file)
        .setAttribute("hdfs.block.id", blockId)
        .startSpan();
    return new OpenTelemetrySpan(span);
  }

  @Override
  public void event(String name, String... keysAndValues) {
    AttributesBuilder a = Attributes.builder();
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
      a.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    span.addEvent(name, a.build());
  }

  @Override
  public void end(long bytes) {
    span.setAttribute("hdfs.bytes", bytes);
    span.end();
  }
}
