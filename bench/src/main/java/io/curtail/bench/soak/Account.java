package io.curtail.bench.soak;

import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The soak's end, every fault lifted: recovers the leases of files whose writing failed, reads
 * every file back with the stock client, waits for full replication, and prints the table of
 * what must hold (no byte lost of those hflushed or closed, none wrong, no visible length below
 * what was hflushed, Curtail's threads gone) beside what is only counted.
 */
final class Account {
  private final FaultyCluster cluster;
  private final Clients clients;
  private final Counts counts;
  /** Whose streams the clients used: "curtail" or "stock". */
  private final String client;
  private final PrintStream stdout;

  Account(FaultyCluster cluster, Clients clients, Counts counts, String client,
      PrintStream stdout) {
    this.cluster = cluster;
    this.clients = clients;
    this.counts = counts;
    this.client = client;
    this.stdout = stdout;
  }

  /** Prints the account; 0 if all is well, else 1. */
  int settle(Map<FaultSpells.Kind, Integer> spells, double ranMinutes, long threadsBefore,
      long threadsAfter) throws IOException, InterruptedException {
    long lost = 0;
    long durable = 0;
    long verified = 0;
    boolean curtail = client.equals("curtail");
    try (DistributedFileSystem stock = cluster.stockFileSystem()) {
      for (Written f : clients.files()) {
        durable += f.durable;
        if (f.retired) {
          verified += f.length;
          continue;
        }
        if (!f.closed) {
          recoverLease(stock, f.path);
        }
        long intact = SeededData.intactPrefix(stock, f.path, f.seed);
        lost += Math.max(0, f.durable - intact);
        verified += intact;
      }
      int underReplicated = underReplicated(stock, TimeUnit.SECONDS.toNanos(120));
      List<String[]> rows = new ArrayList<>();
      rows.add(row("minutes run", String.format(Locale.ROOT, "%.1f", ranMinutes), ""));
      rows.add(row("fault spells", Integer.toString(spells.values().stream()
          .mapToInt(Integer::intValue).sum()), spells.toString()));
      rows.add(row("files written, closed", counts.filesWritten + " of "
          + clients.files().size(), mib(counts.bytesWritten.get()) + " MiB"));
      rows.add(row("writes failed", counts.writeFailures.toString(), "their hflushed bytes"
          + " count as safe"));
      rows.add(row("reads (whole or 4 preads)", counts.reads.toString(),
          mib(counts.bytesRead.get()) + " MiB"));
      rows.add(row("reads failed", counts.readFailures.toString(), ""));
      rows.add(row("tailing reads", counts.tailReads.toString(), counts.tailFailures
          + " failed"));
      rows.add(row("bytes read back by stock", mib(verified) + " MiB", "of " + mib(durable)
          + " MiB hflushed or closed; " + mib(clients.retiredBytes()) + " MiB of them as files"
          + " were retired"));
      rows.add(row("client threads that died", counts.clientsDied.toString(), "must be 0",
          counts.clientsDied.get() == 0));
      rows.add(row("bytes lost", Long.toString(lost), "must be 0", lost == 0));
      rows.add(row("wrong bytes delivered", counts.wrongBytes.toString(), "must be 0",
          counts.wrongBytes.get() == 0));
      rows.add(row("visible length below what was hflushed", counts.belowFlushed.toString(),
          "must be 0", counts.belowFlushed.get() == 0));
      rows.add(row("visible length less than an earlier open's, stock's",
          counts.wentBackAcrossOpens.toString(), "as HDFS allows: each open asks one DataNode,"
          + " and a pipeline's DataNodes acknowledge in turn"));
      rows.add(row("visible length less than an earlier open's, " + client + "'s",
          counts.ownWentBack.toString(), curtail ? "must be 0" : "the same stream as above",
          !curtail || counts.ownWentBack.get() == 0));
      rows.add(row("blocks under-replicated after settling", Integer.toString(underReplicated),
          "must be 0", underReplicated == 0));
      rows.add(row("Curtail threads after close", threadsAfter + " (" + threadsBefore
          + " before)", "must be back", threadsAfter <= threadsBefore));
      print(rows);
      for (Counts.Tally t : counts.tallies()) {
        for (String example : t.examples) {
          stdout.println("  " + t.name + ", e.g. " + example);
        }
      }
      boolean ok = rows.stream().allMatch(r -> !r[3].equals("NO"));
      stdout.println(ok ? "soak: passed" : "soak: FAILED");
      return ok ? 0 : 1;
    }
  }

  private static void recoverLease(DistributedFileSystem stock, Path p)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!stock.recoverLease(p)) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the lease on " + p + " was not recovered within 60 s");
      }
      Thread.sleep(200);
    }
  }

  /** Blocks of the soak's files below full replication once none is, or {@code nanos} passed. */
  private int underReplicated(DistributedFileSystem stock, long nanos)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + nanos;
    while (true) {
      int under = 0;
      for (Written f : clients.files()) {
        if (f.retired) {
          continue;
        }
        for (List<Integer> block : cluster.replicas(stock, f.path)) {
          under += block.size() < Clients.REPLICATION ? 1 : 0;
        }
      }
      if (under == 0 || System.nanoTime() > deadline) {
        return under;
      }
      Thread.sleep(1000);
    }
  }

  private static String[] row(String what, String value, String note) {
    return new String[] {what, value, note, ""};
  }

  private static String[] row(String what, String value, String note, boolean ok) {
    return new String[] {what, value, note, ok ? "yes" : "NO"};
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (double) Clients.MIB);
  }

  private void print(List<String[]> rows) {
    stdout.println();
    stdout.println("| check | value | note | ok |");
    stdout.println("|---|---:|---|---|");
    for (String[] r : rows) {
      stdout.println("| " + String.join(" | ", r) + " |");
    }
  }
}
