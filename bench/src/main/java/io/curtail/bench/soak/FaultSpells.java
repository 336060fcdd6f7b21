package io.curtail.bench.soak;

import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The soak's faults, which come and go: every half mean length the spells due end, and a new one
 * starts if fewer than two are on, on a DataNode no other spell holds, lasting half to one and a
 * half times the mean; never two DataNodes killed at once. The schedule follows from the seed.
 */
final class FaultSpells {
  private static final int MIB = 1024 * 1024;

  /** The faults that rotate, each injected on one DataNode and lifted by closing it. */
  enum Kind {
    SLOW_WRITES {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.slowDisk(dn, DiskFault.serviceTime(Duration.ofMillis(10)));
      }
    },
    SLOW_READS {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.slowDisk(dn, DiskFault.serviceTime(Duration.ofMillis(10))
            .on(DiskFault.Access.READS, DiskFault.Access.OPENS));
      }
    },
    THROTTLED_WRITES {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.throttleWrites(dn, MIB);
      }
    },
    THROTTLED_READS {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.throttleReads(dn, MIB);
      }
    },
    STALLS {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.slowDisk(dn, DiskFault.stalls(Duration.ofSeconds(4), Duration.ofMillis(1500)));
      }
    },
    KILLED {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.stop(dn);
      }
    };

    abstract Fault inject(FaultyCluster c, int dn);
  }

  /** One fault on one DataNode, for a while. */
  private static final class Spell {
    final Kind kind;
    final int dataNode;
    final long endsAt;
    final Fault fault;

    Spell(Kind kind, int dataNode, long endsAt, Fault fault) {
      this.kind = kind;
      this.dataNode = dataNode;
      this.endsAt = endsAt;
      this.fault = fault;
    }
  }

  private final long seed;
  private final double faultSeconds;
  private final double minutes;
  private final PrintStream stdout;

  FaultSpells(long seed, double faultSeconds, double minutes, PrintStream stdout) {
    this.seed = seed;
    this.faultSeconds = faultSeconds;
    this.minutes = minutes;
    this.stdout = stdout;
  }

  /**
   * Starts and ends fault spells until {@code deadline}, each printed as it starts; every spell
   * is lifted on the way out. Returns how many of each kind ran.
   */
  Map<Kind, Integer> rotate(FaultyCluster cluster, long deadline) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    Map<Kind, Integer> ran = new EnumMap<>(Kind.class);
    List<Spell> on = new ArrayList<>();
    long tick = (long) (faultSeconds * 1e9 / 2);
    try {
      while (System.nanoTime() < deadline) {
        long now = System.nanoTime();
        for (Spell s : new ArrayList<>(on)) {
          if (s.endsAt <= now) {
            s.fault.close();
            on.remove(s);
          }
        }
        if (on.size() < 2) {
          Spell s = startSpell(cluster, random, on, now);
          on.add(s);
          ran.merge(s.kind, 1, Integer::sum);
          stdout.printf(Locale.ROOT, "%6.1f min  %s on dn%d for %.0f s%n",
              (now - deadline) / 60e9 + minutes, s.kind, s.dataNode, (s.endsAt - now) / 1e9);
        }
        TimeUnit.NANOSECONDS.sleep(Math.min(tick, Math.max(0, deadline - System.nanoTime())));
      }
    } finally {
      for (Spell s : on) {
        s.fault.close();
      }
    }
    return ran;
  }

  /** A spell on a DataNode no other spell holds; never two DataNodes killed at once. */
  private Spell startSpell(FaultyCluster cluster, SplittableRandom random, List<Spell> on,
      long now) {
    boolean oneKilled = on.stream().anyMatch(s -> s.kind == Kind.KILLED);
    Kind kind;
    do {
      kind = Kind.values()[random.nextInt(Kind.values().length)];
    } while (oneKilled && kind == Kind.KILLED);
    int dn;
    do {
      dn = random.nextInt(cluster.dataNodeCount());
    } while (holds(on, dn));
    long lasting = (long) (faultSeconds * 1e9 * (0.5 + random.nextDouble()));
    return new Spell(kind, dn, now + lasting, kind.inject(cluster, dn));
  }

  private static boolean holds(List<Spell> on, int dn) {
    return on.stream().anyMatch(s -> s.dataNode == dn);
  }
}
