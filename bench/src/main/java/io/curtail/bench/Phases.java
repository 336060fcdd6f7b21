package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A scenario's files split by when stock's NameNode features acted: before the NameNode of
 * {@code stock-best}'s cluster first named a slow node (slow peers or slow disks), and after, when
 * it may keep that node out of pipelines and sort it last for reads. A stock client reads the
 * faulty DataNode first at random before, last after; a p99 over both mixes the two, so each is
 * reported apart. Load-aware read order ({@code considerLoad}) acts from the start and is not a
 * phase. Immutable.
 */
final class Phases {
  private enum Kind { UNKNOWN, BEFORE_START, AT, NEVER }

  /** Nothing watched (no {@code stock-best} cluster, or one whose NameNode cannot be seen). */
  static final Phases UNKNOWN = new Phases(Kind.UNKNOWN, 0, 0);

  private final Kind kind;
  /** When the scenario began and when the NameNode acted, in ns since the benchmark began. */
  private final long startNanos;
  private final long actedNanos;

  private Phases(Kind kind, long startNanos, long actedNanos) {
    this.kind = kind;
    this.startNanos = startNanos;
    this.actedNanos = actedNanos;
  }

  /** The NameNode already named a slow node when the scenario began: every file is after. */
  static Phases actedBefore(long startNanos) {
    return new Phases(Kind.BEFORE_START, startNanos, Long.MIN_VALUE);
  }

  /** The NameNode first named a slow node at {@code actedNanos}, during the scenario. */
  static Phases actedAt(long startNanos, long actedNanos) {
    return new Phases(Kind.AT, startNanos, actedNanos);
  }

  /** The NameNode named no slow node during the scenario: every file is before. */
  static Phases never(long startNanos) {
    return new Phases(Kind.NEVER, startNanos, Long.MAX_VALUE);
  }

  boolean known() {
    return kind != Kind.UNKNOWN;
  }

  /** The files that started before the NameNode acted. */
  List<FileSample> before(List<FileSample> files) {
    return split(files, true);
  }

  /** The files that started once it had. */
  List<FileSample> after(List<FileSample> files) {
    return split(files, false);
  }

  private List<FileSample> split(List<FileSample> files, boolean before) {
    List<FileSample> out = new ArrayList<>();
    if (kind == Kind.UNKNOWN) {
      return out;
    }
    for (FileSample f : files) {
      if (f.startNanos < actedNanos == before) {
        out.add(f);
      }
    }
    return out;
  }

  /** When the NameNode acted, for the report. */
  String when() {
    switch (kind) {
      case BEFORE_START:
        return "before this scenario began (an earlier scenario's faults taught it): every file"
            + " is after, this run shows no before phase";
      case AT:
        return String.format(Locale.ROOT, "%.0f s into the scenario (seen within 5 s)",
            (actedNanos - startNanos) / 1e9);
      case NEVER:
        return "never during this scenario: every file is before, this run shows no after phase";
      default:
        return "unknown: no stock-best cluster's NameNode was watched";
    }
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
