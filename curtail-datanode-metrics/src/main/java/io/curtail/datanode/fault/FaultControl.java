package io.curtail.datanode.fault;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Changes a running DataNode's injected faults from a shell on its host, for chaos runs and the
 * launcher's {@code fault} command: attaches to the DataNode's JVM by process id (the JDK's
 * attach API, which starts the JVM's local JMX agent if it has none) and calls one operation of
 * its {@link DataNodeFaultsMXBean}, the same operations jconsole or jmxterm reach over JMX.
 * Prints the faults in force afterwards.
 *
 * <p>The attach API is reached by reflection: the plugin jar is compiled against Java 8's
 * platform API, which has none (on Java 8 it is the JDK's {@code lib/tools.jar}; from 9, module
 * {@code jdk.attach}).
 */
public final class FaultControl {
  static final String USAGE = "FaultControl PID OPERATION [ARG...], OPERATION one of: slowDisk"
      + " SERVICE_US UTILISATION READS | slowOpens SERVICE_US | stall EVERY_MS FOR_MS | fill"
      + " | slowNic BYTES_PER_S | delayNic PER_PACKET_US | slowLink PEER BYTES_PER_S"
      + " | delayLink PEER PER_PACKET_US | starveCpu MEAN_US JITTER | flap SLOW_MS HEALTHY_MS"
      + " | heal | show";
  private static final String BEANS = "Hadoop:service=DataNode,name=CurtailFaults-*";

  private FaultControl() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: " + USAGE);
      System.exit(2);
    }
    Class<?> vmClass;
    try {
      vmClass = Class.forName("com.sun.tools.attach.VirtualMachine");
    } catch (ClassNotFoundException e) {
      System.err.println("FaultControl needs a JDK's attach API (com.sun.tools.attach); on"
          + " Java 8 put the JDK's lib/tools.jar on the class path");
      System.exit(2);
      return;
    }
    Object vm = call(vmClass.getMethod("attach", String.class), null, args[0]);
    String agent = (String) call(vmClass.getMethod("startLocalManagementAgent"), vm);
    try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(agent))) {
      System.out.println(control(jmx.getMBeanServerConnection(),
          Arrays.copyOfRange(args, 1, args.length)));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    } finally {
      call(vmClass.getMethod("detach"), vm);
    }
  }

  /** Calls {@code method}, throwing what it threw (the attach API's own exceptions). */
  private static Object call(Method method, Object target, Object... args) throws Exception {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      throw cause instanceof Exception ? (Exception) cause : e;
    }
  }

  /**
   * Calls {@code args[0]} with the arguments after it on the one DataNode fault bean
   * {@code server} has; returns the faults in force afterwards.
   *
   * @throws IllegalArgumentException naming what is wrong: the operation, an argument, or a
   *     server without exactly one such bean
   */
  static String control(MBeanServerConnection server, String... args)
      throws IOException, JMException {
    Set<ObjectName> beans = server.queryNames(new ObjectName(BEANS), null);
    if (beans.isEmpty()) {
      throw new IllegalArgumentException("no DataNode in the JVM has Curtail's fault injection"
          + " on: run Curtail's plugin with curtail.datanode.fault.injection=true");
    }
    if (beans.size() != 1) {
      throw new IllegalArgumentException("expected one DataNode running Curtail's plugin in"
          + " the JVM, found fault beans " + beans);
    }
    DataNodeFaultsMXBean faults =
        JMX.newMXBeanProxy(server, beans.iterator().next(), DataNodeFaultsMXBean.class);
    String op = args[0];
    switch (op) {
      case "slowDisk":
        arguments(args, 3);
        faults.slowDisk(whole(args[1], "SERVICE_US"), fraction(args[2]), bool(args[3]));
        break;
      case "slowOpens":
        arguments(args, 1);
        faults.slowOpens(whole(args[1], "SERVICE_US"));
        break;
      case "stall":
        arguments(args, 2);
        faults.stall(whole(args[1], "EVERY_MS"), whole(args[2], "FOR_MS"));
        break;
      case "fill":
        arguments(args, 0);
        faults.fill();
        break;
      case "slowNic":
        arguments(args, 1);
        faults.slowNic(whole(args[1], "BYTES_PER_S"));
        break;
      case "delayNic":
        arguments(args, 1);
        faults.delayNic(whole(args[1], "PER_PACKET_US"));
        break;
      case "slowLink":
        arguments(args, 2);
        faults.slowLink(peer(args[1]), whole(args[2], "BYTES_PER_S"));
        break;
      case "delayLink":
        arguments(args, 2);
        faults.delayLink(peer(args[1]), whole(args[2], "PER_PACKET_US"));
        break;
      case "starveCpu":
        arguments(args, 2);
        faults.starveCpu(whole(args[1], "MEAN_US"), jitter(args[2]));
        break;
      case "flap":
        arguments(args, 2);
        faults.flap(whole(args[1], "SLOW_MS"), whole(args[2], "HEALTHY_MS"));
        break;
      case "heal":
        arguments(args, 0);
        faults.heal();
        break;
      case "show":
        arguments(args, 0);
        break;
      default:
        throw new IllegalArgumentException("unknown operation '" + op + "'; " + USAGE);
    }
    return faults.getFaults();
  }

  private static void arguments(String[] args, int n) {
    if (args.length != n + 1) {
      throw new IllegalArgumentException(args[0] + " takes " + n + " argument(s), got "
          + (args.length - 1) + "; " + USAGE);
    }
  }

  private static long whole(String value, String name) {
    try {
      long v = Long.parseLong(value);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(name + " must be a whole number above 0, was '" + value
        + "'");
  }

  private static double fraction(String value) {
    try {
      double v = Double.parseDouble(value);
      if (v >= 0 && v < 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("UTILISATION (the disk's background load) must be in"
        + " [0, 1), was '" + value + "'");
  }

  private static String peer(String value) {
    int colon = value.lastIndexOf(':');
    if (colon > 0) {
      try {
        Integer.parseInt(value.substring(colon + 1));
        return value;
      } catch (NumberFormatException e) {
        // said below
      }
    }
    throw new IllegalArgumentException("PEER must be the peer DataNode's transfer address"
        + " ip:port (as it names its mirror), was '" + value + "'");
  }

  private static double jitter(String value) {
    try {
      double v = Double.parseDouble(value);
      if (v >= 0 && v <= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("JITTER (the spread of each delay around the mean) must"
        + " be in [0, 1], was '" + value + "'");
  }

  private static boolean bool(String value) {
    if (value.equals("true") || value.equals("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new IllegalArgumentException("READS must be true or false, was '" + value + "'");
  }
}
