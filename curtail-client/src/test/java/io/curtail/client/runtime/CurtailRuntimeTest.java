package io.curtail.client.runtime;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.curtail.client.conf.CurtailConfig;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Who shares what a JVM learns of DataNodes, and when it is forgotten. */
class CurtailRuntimeTest {
  private static final CurtailConfig DEFAULTS = CurtailConfig.defaults();

  private static CurtailConfig scope(String scope) {
    return CurtailConfig.from(Collections.singletonMap("curtail.knowledge.scope", scope));
  }

  @Test
  void fileSystemsOfOneClusterShareOneRuntimeUntilTheLastLetsGo() {
    CurtailRuntime a = CurtailRuntime.acquire("nn1:8020", DEFAULTS);
    CurtailRuntime b = CurtailRuntime.acquire("nn1:8020", DEFAULTS);
    assertSame(a, b);
    a.release();
    assertSame(b, CurtailRuntime.acquire("nn1:8020", DEFAULTS), "still held by b");
    b.release();
    b.release();
    CurtailRuntime fresh = CurtailRuntime.acquire("nn1:8020", DEFAULTS);
    assertNotSame(a, fresh, "a cluster on a reused address starts afresh");
    fresh.release();
  }

  @Test
  void anotherClusterOrScopeOrSettingStartsFresh() {
    CurtailRuntime a = CurtailRuntime.acquire("nn1:8020", DEFAULTS);
    CurtailRuntime other = CurtailRuntime.acquire("nn2:8020", DEFAULTS);
    CurtailRuntime scoped = CurtailRuntime.acquire("nn1:8020", scope("batch-7"));
    CurtailRuntime shortMemory = CurtailRuntime.acquire("nn1:8020",
        CurtailConfig.from(Collections.singletonMap("curtail.knowledge.memory.ms", "1000")));
    try {
      assertNotSame(a, other);
      assertNotSame(a, scoped);
      assertNotSame(a, shortMemory);
      assertNotSame(a.registry(), other.registry());
      assertNotSame(a.slowNodes(), other.slowNodes());
    } finally {
      a.release();
      other.release();
      scoped.release();
      shortMemory.release();
    }
  }
}
