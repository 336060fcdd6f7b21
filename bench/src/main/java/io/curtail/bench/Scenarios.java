package io.curtail.bench;

import static io.curtail.bench.Scenario.FAULTY;
import static io.curtail.bench.Scenario.LINK_PEER;

import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The benchmark's scenarios, in groups: {@code default}, sized so that the default run (scale 1,
 * two rounds) takes about fifteen minutes on two cores; {@code kinds}, the kinds of slow that tell
 * whom to blame; {@code ec}, erasure-coded files. {@code --scale} multiplies the files per client.
 */
public final class Scenarios {
  private static final long MIB = 1024 * 1024;
  private static final long BLOCK = 16 * MIB;
  /** A healthy 64 KiB packet write through a loopback pipeline takes about a millisecond. */
  private static final Duration SLOW_DISK = Duration.ofMillis(10);
  private static final long THROTTLE_BYTES_PER_SEC = 2 * MIB;
  /** A healthy replica open takes well under a millisecond; reads arrive every few ms. */
  private static final Duration SLOW_OPEN = Duration.ofMillis(40);
  private static final Duration STALL_EVERY = Duration.ofSeconds(4);
  private static final Duration STALL_FOR = Duration.ofMillis(1500);
  /**
   * A slow NIC or link: about the 16 Mbit/s the multi-process cluster's {@code shape} gives a
   * DataNode, a fifth of what a loopback pipeline moves here.
   */
  private static final long SLOW_NET_BYTES_PER_SEC = 2 * MIB;
  /** A starved CPU's wait per packet step: five times a healthy packet's handling, ± half. */
  private static final Duration STARVED = Duration.ofMillis(5);
  private static final double STARVED_JITTER = 0.5;
  /** dn0's disk slow for what reads do, opening replicas and reading packets. */
  private static final Function<FaultyCluster, Fault> SLOW_READ_DISK =
      c -> c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_DISK)
          .on(DiskFault.Access.READS, DiskFault.Access.OPENS));
  /** A flapping disk's spells: long enough to be judged slow, short enough to recover in. */
  private static final Duration FLAP_SLOW = Duration.ofSeconds(3);
  private static final Duration FLAP_HEALTHY = Duration.ofSeconds(3);

  /**
   * A slow local disk: each read of the faulty DataNode's block or checksum files (up to 1 MiB,
   * the legacy local reader's buffer) waits its turn and this long.
   */
  private static final long SLOW_LOCAL_READ_MS = 20;
  /**
   * Clients' settings for short-circuit reads: Hadoop's legacy local reads (no native code, which
   * the domain-socket reads need and these machines lack), in a client context of their own, as
   * Hadoop takes a context's settings from the first client that names it.
   */
  private static final Map<String, String> SHORT_CIRCUIT = shortCircuit();

  private static final String RS_3_2 = "RS-3-2-1024k";
  private static final String XOR_2_1 = "XOR-2-1-1024k";
  /** Curtail's striped reader on, for the erasure-coded scenarios; stock ignores it. */
  private static final Map<String, String> STRIPED =
      Collections.singletonMap("curtail.read.striped", "true");

  private static final Map<String, Scenario> ALL = new LinkedHashMap<>();
  private static final Map<String, List<Scenario>> GROUPS = new LinkedHashMap<>();

  private static Map<String, String> shortCircuit() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("dfs.client.read.shortcircuit", "true");
    m.put("dfs.client.use.legacy.blockreader.local", "true");
    m.put("dfs.client.context", "curtail-bench-short-circuit");
    return Collections.unmodifiableMap(m);
  }

  private Scenarios() {
  }

  static {
    inGroup("default", Scenarios::defaultRun);
    inGroup("kinds", Scenarios::kindsOfSlow);
    inGroup("ec", Scenarios::erasureCoded);
  }

  /**
   * Runs {@code adds} and puts every scenario it adds in group {@code name}: {@code -s name} runs
   * the group; a run without {@code -s} runs group {@code default}.
   */
  private static void inGroup(String name, Runnable adds) {
    int before = ALL.size();
    adds.run();
    GROUPS.put(name, new ArrayList<>(ALL.values()).subList(before, ALL.size()));
  }

  /** The default run: healthy scenarios, and the faults of the paper and of the first issues. */
  private static void defaultRun() {
    add(new Scenario("healthy", "no fault: the overhead of each mode",
        new Workload(4, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.WRITE, Op.READ, Op.PREAD),
        "none", null));
    add(new Scenario("healthy-read", "no fault, reads only: each mode's read throughput",
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.READ, Op.PREAD),
        "none", null));
    add(new Scenario("healthy-blocks",
        "no fault, files of three blocks read across their blocks: sequential reads, 1 MiB preads",
        new Workload(4, 3, 12 * MIB, 0, (short) 3, 4 * MIB, Op.READ, Op.PREAD),
        "none", null));
    add(new Scenario("healthy-write",
        "no fault, writes of files of three blocks: each mode's write cost",
        new Workload(4, 3, 12 * MIB, 0, (short) 3, 4 * MIB, Op.WRITE),
        "none", null));
    add(new Scenario("healthy-small-preads",
        "no fault, positional reads of 4 KiB and of 64 KiB at random offsets",
        new Workload(4, 4, 16 * MIB, 0, (short) 3, BLOCK, Op.PREAD_4K, Op.PREAD_64K),
        "none", null));
    add(new Scenario("healthy-seeks",
        "no fault, reads of 16 KiB pieces with forward seeks of up to 256 KiB between them",
        new Workload(4, 4, 16 * MIB, 0, (short) 3, BLOCK, Op.SEEK_READ),
        "none", null));
    add(new Scenario("healthy-hflush",
        "no fault, writes with an hflush every 8 KiB (a write-ahead log)",
        new Workload(4, 3, MIB, 0, (short) 3, BLOCK, Op.WRITE_HFLUSH),
        "none", null));
    writeFault("write-slow-disk",
        "writes; one DataNode's disk is a FIFO queue at 10 ms a packet (~10× healthy)",
        "dn" + FAULTY + " disk 10 ms/packet",
        c -> c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_DISK)));
    slowDiskPlaced("middle", "in the middle", "2nd", Placement.MIDDLE);
    writeFault("write-throttled",
        "writes; one DataNode receives at most 2 MiB/s in all",
        "dn" + FAULTY + " write bandwidth 2 MiB/s",
        c -> c.throttleWrites(FAULTY, THROTTLE_BYTES_PER_SEC));
    readFault("throttled", "serves at most 2 MiB/s in all",
        "dn" + FAULTY + " read bandwidth 2 MiB/s",
        c -> c.throttleReads(FAULTY, THROTTLE_BYTES_PER_SEC));
    readFault("slow-open", "opens replicas through a FIFO queue at 40 ms each, then sends at"
        + " full speed", "dn" + FAULTY + " replica opens 40 ms each, FIFO",
        c -> c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_OPEN).on(DiskFault.Access.OPENS)));
    readFault("slow-disk", "reads its disk through a FIFO queue at 10 ms a packet",
        "dn" + FAULTY + " disk 10 ms per packet read, FIFO",
        SLOW_READ_DISK);
    // What HBase and encryption zones read, under the same slow disk.
    add(new Scenario("read-slow-disk-encrypted",
        "sequential reads of files in an encryption zone; one DataNode reads its disk through a"
        + " FIFO queue at 10 ms a packet",
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.READ).encrypted(),
        "dn" + FAULTY + " disk 10 ms per packet read, FIFO",
        SLOW_READ_DISK));
    add(new Scenario("read-slow-disk-nochecksum",
        "sequential reads with checksum verification off (HBase's HFile reads); one DataNode"
        + " reads its disk through a FIFO queue at 10 ms a packet",
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.READ).withoutChecksums(),
        "dn" + FAULTY + " disk 10 ms per packet read, FIFO",
        SLOW_READ_DISK));
    readFault("stalls", "freezes for 1.5 s every 4 s", "dn" + FAULTY + " stalls 1.5 s every 4 s",
        c -> c.slowDisk(FAULTY, DiskFault.stalls(STALL_EVERY, STALL_FOR)));
    add(new Scenario("mixed",
        "reads and writes under 2 background streams; one DataNode's disk is slow for both",
        new Workload(6, 4, 4 * MIB, 2, (short) 3, BLOCK, Op.WRITE, Op.READ, Op.PREAD),
        "dn" + FAULTY + " disk 10 ms/packet, reads too",
        c -> c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_DISK).withReads())));
    add(new Scenario("healthy-local",
        "no fault, short-circuit (legacy local) reads: sequential reads and preads",
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.READ, Op.PREAD),
        "none", null).withClient(SHORT_CIRCUIT));
    add(new Scenario("read-slow-local-disk",
        "sequential short-circuit reads; one DataNode's disk serves local reads FIFO at 20 ms"
        + " each",
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.READ),
        "dn" + FAULTY + " local disk 20 ms per read, FIFO",
        c -> c.slowLocalDisk(FAULTY, SLOW_LOCAL_READ_MS)).withClient(SHORT_CIRCUIT));
  }

  /**
   * The kinds of slow that tell whom to blame (issue 35): the slow disk first and last in the
   * pipeline, a slow NIC, one slow link, a starved CPU, a flapping disk.
   */
  private static void kindsOfSlow() {
    slowDiskPlaced("first", "first", "1st", Placement.FIRST);
    slowDiskPlaced("last", "last", "3rd", Placement.LAST);
    writeFault("write-slow-nic",
        "writes; one DataNode's NIC sends at most 2 MiB/s in all (what it forwards and serves)",
        "dn" + FAULTY + " NIC 2 MiB/s out, FIFO",
        c -> c.slowNic(FAULTY, SLOW_NET_BYTES_PER_SEC));
    writeFault("write-slow-link",
        "writes through pipelines dn" + FAULTY + ", dn" + LINK_PEER + ", another; the link from"
        + " the first to the second carries at most 2 MiB/s, that way only",
        "dn" + FAULTY + "->dn" + LINK_PEER + " link 2 MiB/s, FIFO",
        c -> c.slowLink(FAULTY, LINK_PEER, SLOW_NET_BYTES_PER_SEC), Placement.LINK);
    writeFault("write-cpu-starved",
        "writes; one DataNode's CPU is starved: each packet's receipt and ack wait 5 ms ± 50%",
        "dn" + FAULTY + " CPU starved, 5 ms ± 50% per packet step",
        c -> c.starveCpu(FAULTY, STARVED, STARVED_JITTER));
    writeFault("write-flapping",
        "writes; one DataNode's disk is slow (10 ms/packet) for 3 s, healthy for 3 s, again",
        "dn" + FAULTY + " disk 10 ms/packet, flapping 3 s slow / 3 s healthy",
        c -> Fault.all(Arrays.asList(c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_DISK)),
            c.flap(FAULTY, FLAP_SLOW, FLAP_HEALTHY))));
    readFault("slow-nic", "sends at most 2 MiB/s in all (a slow NIC)",
        "dn" + FAULTY + " NIC 2 MiB/s out, FIFO",
        c -> c.slowNic(FAULTY, SLOW_NET_BYTES_PER_SEC));
    readFault("cpu-starved", "is starved of CPU: each packet it sends waits 5 ms ± 50%",
        "dn" + FAULTY + " CPU starved, 5 ms ± 50% per packet step",
        c -> c.starveCpu(FAULTY, STARVED, STARVED_JITTER));
  }

  /** Erasure-coded files (issue 36), read by Curtail's striped reader. */
  private static void erasureCoded() {
    // Erasure-coded files: every block group of RS-3-2 spans all five DataNodes, so the faulty
    // one holds a data cell of most stripes (a parity cell of the rest).
    add(new Scenario("ec-healthy-read",
        "no fault, erasure-coded (RS-3-2) files: sequential reads and 1 MiB preads",
        ecWorkload(RS_3_2, Op.READ, Op.PREAD), "none", null).withClient(STRIPED));
    ecReadFault("throttled", RS_3_2, "serves at most 2 MiB/s in all",
        "dn" + FAULTY + " read bandwidth 2 MiB/s",
        c -> c.throttleReads(FAULTY, THROTTLE_BYTES_PER_SEC));
    ecReadFault("slow-disk", RS_3_2, "reads its disk through a FIFO queue at 10 ms a packet",
        "dn" + FAULTY + " disk 10 ms per packet read, FIFO",
        SLOW_READ_DISK);
    ecReadFault("stalls", RS_3_2, "freezes for 1.5 s every 4 s",
        "dn" + FAULTY + " stalls 1.5 s every 4 s",
        c -> c.slowDisk(FAULTY, DiskFault.stalls(STALL_EVERY, STALL_FOR)));
    // Writes: stock's striped stream in every mode; Curtail's watched, letting the streamer of a
    // group that falls behind go (curtail.write.striped.drop, on with fail-fast). The repl/blk
    // column counts, for these, streamers let go per block group.
    add(new Scenario("ec-healthy-write", "no fault, writes of erasure-coded (" + RS_3_2
        + ") files: what watching the streamers costs, and that nothing is let go",
        ecWorkload(RS_3_2, Op.WRITE), "none", null));
    add(new Scenario("ec-write-slow-disk", "writes of erasure-coded (" + RS_3_2 + ") files; one"
        + " DataNode's disk is a FIFO queue at 10 ms a packet", ecWorkload(RS_3_2, Op.WRITE),
        "dn" + FAULTY + " disk 10 ms/packet, FIFO",
        c -> c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_DISK))));
    add(new Scenario("ec-xor-read-throttled",
        "sequential reads of erasure-coded (XOR-2-1) files; one DataNode serves at most 2 MiB/s",
        ecWorkload(XOR_2_1, Op.READ), "dn" + FAULTY + " read bandwidth 2 MiB/s",
        c -> c.throttleReads(FAULTY, THROTTLE_BYTES_PER_SEC)).withClient(STRIPED));
  }

  /**
   * Two scenarios of one kind of slow read on erasure-coded files: {@code ec-read-<kind>} and
   * {@code ec-pread-<kind>}, where one DataNode {@code does}.
   */
  private static void ecReadFault(String kind, String policy, String does,
      String faultDescription, Function<FaultyCluster, Fault> fault) {
    add(new Scenario("ec-read-" + kind, "sequential reads of erasure-coded (" + policy
        + ") files; one DataNode " + does, ecWorkload(policy, Op.READ), faultDescription, fault)
        .withClient(STRIPED));
    add(new Scenario("ec-pread-" + kind, "positional reads of 1 MiB of erasure-coded ("
        + policy + ") files; one DataNode " + does, ecWorkload(policy, Op.PREAD),
        faultDescription, fault).withClient(STRIPED));
  }

  /** Files of four RS-3-2 stripes (12 MiB), each internal block 16 MiB at most. */
  private static Workload ecWorkload(String policy, Op... ops) {
    return new Workload(4, 3, 12 * MIB, 0, (short) 1, BLOCK, ops).erasureCoded(policy);
  }

  private static void add(Scenario s) {
    ALL.put(s.name(), s);
  }

  /**
   * Two scenarios of one kind of slow read: {@code read-<kind>}, sequential reads, and
   * {@code pread-<kind>}, positional reads of 1 MiB, where one DataNode {@code does}.
   */
  private static void readFault(String kind, String does, String faultDescription,
      Function<FaultyCluster, Fault> fault) {
    add(new Scenario("read-" + kind, "sequential reads; one DataNode " + does,
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.READ), faultDescription, fault));
    add(new Scenario("pread-" + kind, "positional reads of 1 MiB; one DataNode " + does,
        new Workload(6, 6, 4 * MIB, 0, (short) 3, BLOCK, Op.PREAD), faultDescription, fault));
  }

  /**
   * A scenario of writes through a DataNode that {@code description} says is slow: six writers of
   * four 4 MiB files each, replication 3, pipelines placed by the NameNode or by {@code placement}.
   */
  private static void writeFault(String name, String description, String faultDescription,
      Function<FaultyCluster, Fault> fault, Placement placement) {
    add(new Scenario(name, description,
        new Workload(6, 4, 4 * MIB, 0, (short) 3, BLOCK, Op.WRITE), faultDescription, fault,
        placement));
  }

  /** {@link #writeFault(String, String, String, Function, Placement)}, the NameNode placing. */
  private static void writeFault(String name, String description, String faultDescription,
      Function<FaultyCluster, Fault> fault) {
    writeFault(name, description, faultDescription, fault, Placement.NAMENODE);
  }

  /**
   * {@code write-slow-<name>}: writes through pipelines placed so that the slow-disk DataNode is
   * always {@code where}, the {@code nth} of every pipeline.
   */
  private static void slowDiskPlaced(String name, String where, String nth,
      Placement placement) {
    writeFault("write-slow-" + name,
        "writes through pipelines with the slow-disk DataNode always " + where,
        "dn" + FAULTY + " disk 10 ms/packet, " + nth + " of every pipeline",
        c -> c.slowDisk(FAULTY, DiskFault.serviceTime(SLOW_DISK)), placement);
  }

  /** Every scenario, in catalogue order. */
  public static List<Scenario> all() {
    return Collections.unmodifiableList(new ArrayList<>(ALL.values()));
  }

  /** The scenarios of group {@code name}: {@code default}, {@code kinds}, {@code ec} or all. */
  public static List<Scenario> group(String name) {
    if (name.equals("all")) {
      return all();
    }
    List<Scenario> g = GROUPS.get(name);
    if (g == null) {
      throw new IllegalArgumentException("unknown scenario group '" + name + "'; groups are all, "
          + String.join(", ", GROUPS.keySet()));
    }
    return Collections.unmodifiableList(g);
  }

  /** The groups' names, and the group each scenario is in. */
  public static Map<String, List<Scenario>> groups() {
    return Collections.unmodifiableMap(GROUPS);
  }

  /**
   * The scenario named {@code name}.
   *
   * @throws IllegalArgumentException listing the known names
   */
  public static Scenario byName(String name) {
    Scenario s = ALL.get(name);
    if (s == null) {
      throw new IllegalArgumentException("unknown scenario '" + name + "'; scenarios are "
          + String.join(", ", ALL.keySet()) + "; groups are all, "
          + String.join(", ", GROUPS.keySet()));
    }
    return s;
  }

  /** The scenario named {@code name}, or the scenarios of the group so named. */
  public static List<Scenario> named(String name) {
    return name.equals("all") || GROUPS.containsKey(name) ? group(name)
        : Collections.singletonList(byName(name));
  }
}
