package io.curtail.client.write;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.net.SocketException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.io.retry.Idempotent;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode as Curtail's writer calls it: a call its protocol marks {@link Idempotent}
 * ({@code addBlock}, {@code complete}, {@code updateBlockForPipeline},
 * {@code getAdditionalDatanode}, …) that fails because its connection broke under it, or because
 * the NameNode says it is still starting (or in its start-up safe mode), is made again, a few
 * times with a growing pause. A NameNode restarting under a write then costs the write seconds,
 * not the write.
 *
 * <p>Stock's proxy retries connecting (a NameNode that is down) but, unless
 * {@code dfs.client.retry.policy.enabled}, not a call that met the NameNode going down or coming
 * up: whether a stock write survives a restart depends on when its next {@code addBlock} falls
 * (the fault matrix saw both outcomes). Calls that are not idempotent ({@code create},
 * {@code updatePipeline}) are never made twice, and a refused connection is not retried here: the
 * IPC client has retried it already.
 */
final class NameNodeRetries implements InvocationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeRetries.class);

  private final ClientProtocol namenode;
  private final int attempts;
  private final long firstPauseMs;

  private NameNodeRetries(ClientProtocol namenode, int attempts, long firstPauseMs) {
    this.namenode = namenode;
    this.attempts = attempts;
    this.firstPauseMs = firstPauseMs;
  }

  /**
   * {@code namenode}, its idempotent calls made up to {@code attempts} times, the pause between
   * two doubling from {@code firstPauseMs}.
   */
  static ClientProtocol around(ClientProtocol namenode, int attempts, long firstPauseMs) {
    return (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
        new Class<?>[] {ClientProtocol.class},
        new NameNodeRetries(namenode, attempts, firstPauseMs));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    boolean idempotent = method.isAnnotationPresent(Idempotent.class);
    long pauseMs = firstPauseMs;
    for (int attempt = 1; ; attempt++) {
      try {
        return method.invoke(namenode, args);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (!idempotent || attempt >= attempts || !isTransient(cause)) {
          throw cause;
        }
        LOG.info("NameNode call {} failed ({}); trying again in {} ms, attempt {} of {}",
            method.getName(), cause.toString(), pauseMs, attempt + 1, attempts);
        WriteContext.sleep(pauseMs);
        pauseMs *= 2;
      }
    }
  }

  /** Whether {@code t} is the NameNode going down or coming up, not an answer. */
  static boolean isTransient(Throwable t) {
    if (t instanceof RemoteException) {
      String name = ((RemoteException) t).getClassName();
      return name.equals(RetriableException.class.getName())
          || name.equals(SafeModeException.class.getName());
    }
    if (t instanceof InterruptedIOException || t instanceof ConnectException) {
      return false; // interrupted, or timed out; or refused, which the IPC client retried
    }
    return t instanceof EOFException || t instanceof SocketException;
  }
}
