package io.curtail.datanode;

import io.curtail.datanode.hook.CurtailDataNodePlugin;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * Sets the keys a stock DataNode needs to run Curtail's plugin. Tests, the benchmark's embedded
 * cluster and operators' {@code hdfs-site.xml} all use the same keys: this is their one source.
 */
public final class DataNodeSetup {
  private DataNodeSetup() {}

  /** Adds Curtail's plugin to {@code dfs.datanode.plugins}, keeping any plugins already listed. */
  public static Configuration apply(Configuration conf) {
    String plugin = CurtailDataNodePlugin.class.getName();
    List<String> plugins = new ArrayList<>();
    for (String p : conf.getTrimmedStringCollection(DFSConfigKeys.DFS_DATANODE_PLUGINS_KEY)) {
      plugins.add(p);
    }
    if (!plugins.contains(plugin)) {
      plugins.add(plugin);
    }
    conf.set(DFSConfigKeys.DFS_DATANODE_PLUGINS_KEY, String.join(",", plugins));
    return conf;
  }

  /**
   * As {@link #apply}, with fault injection turned on ({@link DataNodeKeys#FAULT_INJECTION}): for
   * test clusters and chaos runs, never a production DataNode.
   */
  public static Configuration withFaultInjection(Configuration conf) {
    apply(conf).setBoolean(DataNodeKeys.FAULT_INJECTION, true);
    return conf;
  }
}
