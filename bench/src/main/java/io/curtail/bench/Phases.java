package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A scenario's files split by whether stock's NameNode features were acting when each started:
 * whether the NameNode of {@code stock-best}'s cluster named a slow node then (in its slow-peers
 * or slow-disks report), and so could keep it out of pipelines and sort it last for reads. A
 * stock client reads the faulty DataNode first at random when it names none, last when it names
 * it; a p99 over both mixes the two, so each is reported apart. The NameNode names a node only
 * while DataNodes keep reporting it, so it can stop again; a file started after it stopped counts
 * as not acting. Load-aware read order ({@code considerLoad}) acts throughout and is no phase.
 * Immutable.
 */
final class Phases {
  /** Nothing watched (no {@code stock-best} cluster, or one whose NameNode cannot be seen). */
  static final Phases UNKNOWN = new Phases(false, 0, new long[0]);

  private final boolean known;
  /** When the scenario began, in ns since the benchmark began. */
  private final long startNanos;
  /**
   * When the NameNode began and stopped naming a slow node, alternately, in ns since the
   * benchmark began; {@link Long#MIN_VALUE} first if it named one when the watch first looked.
   */
  private final long[] changes;

  private Phases(boolean known, long startNanos, long[] changes) {
    this.known = known;
    this.startNanos = startNanos;
    this.changes = changes;
  }

  /**
   * What a watch saw from {@code startNanos}: the NameNode began naming a slow node at
   * {@code changes[0]} ({@link Long#MIN_VALUE}: already named at the first look), stopped at
   * {@code changes[1]}, began again at {@code changes[2]}, …; none: it never named one.
   */
  static Phases watched(long startNanos, long... changes) {
    return new Phases(true, startNanos, changes.clone());
  }

  boolean known() {
    return known;
  }

  /** The files that started while the NameNode named no slow node. */
  List<FileSample> notActing(List<FileSample> files) {
    return split(files, false);
  }

  /** The files that started while it named one. */
  List<FileSample> acting(List<FileSample> files) {
    return split(files, true);
  }

  private List<FileSample> split(List<FileSample> files, boolean acting) {
    List<FileSample> out = new ArrayList<>();
    if (!known) {
      return out;
    }
    for (FileSample f : files) {
      if (actingAt(f.startNanos) == acting) {
        out.add(f);
      }
    }
    return out;
  }

  /** Whether an odd number of changes came at or before {@code nanos}: it named one then. */
  private boolean actingAt(long nanos) {
    int before = 0;
    while (before < changes.length && changes[before] <= nanos) {
      before++;
    }
    return before % 2 == 1;
  }

  /** When the NameNode acted, in seconds into the scenario, for the report. */
  String when() {
    if (!known) {
      return "unknown: no stock-best cluster's NameNode was watched";
    }
    if (changes.length == 0) {
      return "never during this scenario";
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < changes.length; i += 2) {
      out.append(i == 0 ? "from " : "; again from ").append(changes[i] == Long.MIN_VALUE
          ? "before the scenario began" : seconds(changes[i]));
      out.append(i + 1 < changes.length ? " to " + seconds(changes[i + 1]) : " to its end");
    }
    return out.append(" (looked at every 5 s)").toString();
  }

  private String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.0f s", (nanos - startNanos) / 1e9);
  }

  /**
   * Whether a slow-node report names a DataNode: {@code FaultyCluster#slowNodeReports}'s
   * "slowPeers=… slowDisks=…", each part empty, "null", "[]" or "{}" when it names none.
   */
  static boolean namesASlowNode(String report) {
    if (report == null) {
      return false;
    }
    String rest = report.replace("slowPeers=", " ").replace("slowDisks=", " ")
        .replace("null", " ").replace("[]", " ").replace("{}", " ");
    return !rest.isBlank();
  }
}
