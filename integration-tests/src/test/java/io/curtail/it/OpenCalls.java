package io.curtail.it;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;

/**
 * Counts the NameNode's answers to clients asking where a file's blocks are (its audit log's
 * {@code open}, one per {@code getBlockLocations}), by file: what a stream costs the NameNode.
 * Installed with {@code dfs.namenode.audit.loggers=default,io.curtail.it.OpenCalls}.
 */
public final class OpenCalls implements AuditLogger {
  private static final Map<String, AtomicLong> CALLS = new ConcurrentHashMap<>();

  /** Calls for {@code file}'s block locations so far, in this JVM's clusters. */
  public static long of(String file) {
    AtomicLong n = CALLS.get(file);
    return n == null ? 0 : n.get();
  }

  @Override
  public void initialize(Configuration conf) {
  }

  @Override
  public void logAuditEvent(boolean succeeded, String userName, InetAddress addr, String cmd,
      String src, String dst, FileStatus stat) {
    if ("open".equals(cmd) && src != null) {
      CALLS.computeIfAbsent(src, f -> new AtomicLong()).incrementAndGet();
    }
  }
}
