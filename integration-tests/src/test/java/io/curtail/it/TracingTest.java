package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * OpenTelemetry spans for blocks, checked with the SDK's in-memory exporter: one per block
 * written and per block range read, children of the caller's span (a write's blocks too, though
 * another thread writes them), their bytes adding up.
 */
class TracingTest {
  private static final long BLOCK = 256 * 1024;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(3).blockSize(BLOCK));
  private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

  @BeforeAll
  static void sdk() {
    GlobalOpenTelemetry.resetForTest();
    GlobalOpenTelemetry.set(OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider
        .builder().addSpanProcessor(SimpleSpanProcessor.create(SPANS)).build()).build());
  }

  @AfterAll
  static void noSdk() {
    GlobalOpenTelemetry.resetForTest();
  }

  @Test
  void aSpanPerBlockUnderTheCallersSpan() throws Exception {
    Map<String, String> m = new HashMap<>();
    m.put("curtail.knowledge.scope", "tracing-test");
    long length = 2 * BLOCK + 100;
    Path file = new Path("/traced/f");
    Span job = GlobalOpenTelemetry.getTracer("test").spanBuilder("job").startSpan();
    try (CurtailDistributedFileSystem fs = CLUSTER.cluster().curtailFileSystem(m);
        Scope in = job.makeCurrent()) {
      SeededData.create(fs, file, 3, length);
      SeededData.verify(fs, file, 3, length);
    } finally {
      job.end();
    }
    List<SpanData> spans = SPANS.getFinishedSpanItems();
    long written = 0;
    long read = 0;
    int writes = 0;
    int reads = 0;
    for (SpanData s : spans) {
      if (s.getName().equals("job")) {
        continue;
      }
      assertEquals(job.getSpanContext().getSpanId(), s.getParentSpanId(), s.toString());
      assertEquals("/traced/f", s.getAttributes().get(AttributeKey.stringKey("hdfs.file")));
      long bytes = s.getAttributes().get(AttributeKey.longKey("hdfs.bytes"));
      if (s.getName().equals("curtail.block.write")) {
        writes++;
        written += bytes;
      } else {
        assertEquals("curtail.block.read", s.getName());
        reads++;
        read += bytes;
      }
    }
    assertEquals(3, writes);
    assertEquals(length, written);
    assertEquals(3, reads);
    assertEquals(length, read);
    assertTrue(spans.size() == writes + reads + 1, spans.toString());
  }
}
