package io.curtail.it;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;

/**
 * A NameNode audit logger (install with {@code dfs.namenode.audit.loggers}) counting the
 * successful {@code create}s of each path: how many times clients created a file, told by the
 * NameNode itself, however briefly each lived.
 */
public final class CreateAudit implements AuditLogger {
  private static final Map<String, Integer> CREATES = new ConcurrentHashMap<>();

  @Override
  public void initialize(Configuration conf) {
  }

  @Override
  public void logAuditEvent(boolean succeeded, String userName, InetAddress addr, String cmd,
      String src, String dst, FileStatus stat) {
    if (succeeded && "create".equals(cmd)) {
      CREATES.merge(src, 1, Integer::sum);
    }
  }

  /** The successful creates of {@code src} so far. */
  public static int creates(String src) {
    return CREATES.getOrDefault(src, 0);
  }
}
