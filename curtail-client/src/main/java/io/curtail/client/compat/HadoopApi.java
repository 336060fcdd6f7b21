package io.curtail.client.compat;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleProxies;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * The members of Hadoop's client that Curtail calls and that differ between the Hadoop versions it
 * runs on (3.3.4 to 3.4.x), each probed once per JVM with {@code getMethod} and then called
 * through a plain method here.
 *
 * <p>Why probe rather than call and see: Curtail is compiled against 3.4, and a 3.4 member called
 * on a 3.3 class path fails with {@code NoSuchMethodError}, an {@code Error} that no handler of
 * the client catches (nor should), so it kills whichever thread met it: a streamer in the middle
 * of a pipeline recovery, the lease renewal. Deciding once, when this class loads, which form the
 * class path has means no call ever meets a missing member.
 *
 * <p>The newer form is called directly, behind a {@code static final} decision the JIT folds
 * away, so on 3.4 these cost what the plain call does; the older one, which a class compiled
 * against 3.4 cannot name, through a method handle found once (its exceptions pass through
 * untouched). Neither is on a per-packet path: a lease is renewed every 30 s, and the recovery
 * limit is read once per file system. {@code HadoopClientLinkTest} allows the 3.4 members to be
 * missing in 3.3 only where this class names them; a member it finds missing belongs here.
 */
public final class HadoopApi {
  /**
   * The limit 3.4 reads into {@code DfsClientConf.getMaxPipelineRecoveryRetries()}. 3.3 has no
   * such key: its {@code DataStreamer} gives up after 5 recoveries for the same packet, fixed,
   * which is the key's default, so on 3.3 Curtail reads the key itself (unset: as 3.3 does).
   */
  static final String MAX_PIPELINE_RECOVERY_RETRIES_KEY =
      "dfs.client.pipeline.recovery.max-retries";
  static final int MAX_PIPELINE_RECOVERY_RETRIES_DEFAULT = 5;

  /** Since 3.4 (for routers' namespaces): {@code ClientProtocol.renewLease(String, List)}. */
  private static final boolean RENEW_LEASE_WITH_NAMESPACES =
      declares(ClientProtocol.class, "renewLease", String.class, List.class);
  /** 3.3's {@code ClientProtocol.renewLease(String)}; null where 3.4's form is there. */
  private static final LeaseRenewal<ClientProtocol> RENEW_LEASE_BY_NAME =
      RENEW_LEASE_WITH_NAMESPACES ? null : leaseRenewalByName(ClientProtocol.class);
  /** Since 3.4: {@code DfsClientConf.getMaxPipelineRecoveryRetries()}. */
  private static final boolean MAX_RECOVERY_RETRIES_GETTER =
      declares(DfsClientConf.class, "getMaxPipelineRecoveryRetries");

  private HadoopApi() {
  }

  /**
   * A lease renewal by client name alone, as 3.3's {@code ClientProtocol} has it (public only
   * because a method handle proxy must be).
   */
  @FunctionalInterface
  public interface LeaseRenewal<P> {
    void renew(P namenode, String clientName) throws IOException;
  }

  /** Renews the leases {@code clientName} holds on every namespace {@code namenode} serves. */
  public static void renewLease(ClientProtocol namenode, String clientName) throws IOException {
    if (RENEW_LEASE_WITH_NAMESPACES) {
      namenode.renewLease(clientName, null); // null: all of them, what 3.3's form did
    } else {
      RENEW_LEASE_BY_NAME.renew(namenode, clientName);
    }
  }

  /**
   * Recoveries of a pipeline in a row without progress after which a write gives up, as stock
   * clients of the running Hadoop count them.
   *
   * @param hadoopConf the configuration {@code dfsConf} was read from
   */
  public static int maxPipelineRecoveryRetries(DfsClientConf dfsConf, Configuration hadoopConf) {
    return MAX_RECOVERY_RETRIES_GETTER ? dfsConf.getMaxPipelineRecoveryRetries()
        : maxPipelineRecoveryRetries(hadoopConf);
  }

  /** What the running Hadoop has: the forms probed, for logs and tests. */
  public static String probed() {
    return "renewLease=" + (RENEW_LEASE_WITH_NAMESPACES ? "(String,List)" : "(String)")
        + " maxPipelineRecoveryRetries=" + (MAX_RECOVERY_RETRIES_GETTER ? "DfsClientConf"
            : MAX_PIPELINE_RECOVERY_RETRIES_KEY + " read by Curtail");
  }

  /** 3.3's branch of {@link #maxPipelineRecoveryRetries(DfsClientConf, Configuration)}. */
  static int maxPipelineRecoveryRetries(Configuration hadoopConf) {
    return hadoopConf.getInt(MAX_PIPELINE_RECOVERY_RETRIES_KEY,
        MAX_PIPELINE_RECOVERY_RETRIES_DEFAULT);
  }

  /** Whether {@code type} has the public method {@code name} taking {@code parameters}. */
  static boolean declares(Class<?> type, String name, Class<?>... parameters) {
    try {
      type.getMethod(name, parameters);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /**
   * {@code protocol}'s {@code renewLease(String)} as a {@link LeaseRenewal}.
   *
   * @throws IllegalStateException if {@code protocol} has neither form: a Hadoop Curtail does not
   *     know, refused when the first file system starts rather than when a lease runs out
   */
  static <P> LeaseRenewal<P> leaseRenewalByName(Class<P> protocol) {
    MethodHandle renew;
    try {
      renew = MethodHandles.lookup().findVirtual(protocol, "renewLease",
          MethodType.methodType(void.class, String.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(protocol.getName() + " has neither renewLease(String, List)"
          + " (Hadoop 3.4) nor renewLease(String) (Hadoop 3.3): " + e, e);
    }
    @SuppressWarnings("unchecked")
    LeaseRenewal<P> bound = MethodHandleProxies.asInterfaceInstance(LeaseRenewal.class, renew);
    return bound;
  }
}
