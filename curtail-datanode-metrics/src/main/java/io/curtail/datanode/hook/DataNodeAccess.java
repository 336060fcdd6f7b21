package io.curtail.datanode.hook;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;

/**
 * The two DataNode internals the plugin needs and stock Hadoop does not publish, in one place so
 * that an upgrade that moves them breaks here, loudly, and nowhere else. Tested with Hadoop 3.4.2.
 *
 * <ul>
 *   <li>The DataNode's {@code threadGroup}: every xceiver and packet-responder thread of one
 *       DataNode runs in it, which is how a hook shared by all DataNodes of a JVM (a
 *       MiniDFSCluster) tells which DataNode is calling.
 *   <li>The read throttler of its {@code DataXceiverServer}: the one per-packet call on the read
 *       path ({@code BlockSender} throttles each packet it sends).
 * </ul>
 */
final class DataNodeAccess {
  private DataNodeAccess() {}

  /** Thrown when this Hadoop does not have what the plugin relies on. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String what, Throwable cause) {
      super("this Hadoop version lacks " + what + " (tested with 3.4.2)", cause);
    }
  }

  static ThreadGroup threadGroup(DataNode dn) throws Unavailable {
    try {
      Field f = DataNode.class.getDeclaredField("threadGroup");
      f.setAccessible(true);
      Object group = f.get(dn);
      if (!(group instanceof ThreadGroup)) {
        throw new Unavailable("DataNode.threadGroup (it is not set yet)", null);
      }
      return (ThreadGroup) group;
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new Unavailable("DataNode.threadGroup", e);
    }
  }

  static DataTransferThrottler readThrottler(DataNode dn) throws Unavailable {
    try {
      Object server = dn.getXferServer(); // its class is package-private: hold it as an Object
      return (DataTransferThrottler) method(server, "getReadThrottler").invoke(server);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new Unavailable("DataXceiverServer.getReadThrottler", e);
    }
  }

  static void setReadThrottler(DataNode dn, DataTransferThrottler throttler) throws Unavailable {
    try {
      Object server = dn.getXferServer();
      method(server, "setReadThrottler", DataTransferThrottler.class).invoke(server, throttler);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new Unavailable("DataXceiverServer.setReadThrottler", e);
    }
  }

  /** A public method of the package-private {@code DataXceiverServer}, made callable from here. */
  private static Method method(Object server, String name, Class<?>... params)
      throws NoSuchMethodException {
    Method m = server.getClass().getMethod(name, params);
    m.setAccessible(true);
    return m;
  }
}
