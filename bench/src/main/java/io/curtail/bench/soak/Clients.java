package io.curtail.bench.soak;

import io.curtail.client.read.CurtailInputStream;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * The soak's client threads and the files they share: writers (files of up to three and a half
 * blocks, hflushed now and then), readers (whole files and positional reads of finished ones) and
 * tailers (the visible length of a file being written, and reading what was hflushed). Each
 * thread loops until {@link #stop}; what they meet goes to {@link Counts}, what they wrote to
 * {@link #files}.
 */
final class Clients {
  static final int KIB = 1024;
  static final int MIB = 1024 * KIB;
  static final long BLOCK = 4L * MIB;
  static final short REPLICATION = 3;

  private final long seed;
  private final int keep;
  /** Whose streams the clients use, for messages: "curtail" or "stock". */
  private final String client;
  private final Counts counts;
  /** When the clients started, for the minutes examples are stamped with. */
  private final long began;

  private final List<Written> files = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger fileNo = new AtomicInteger();
  private final Object retiring = new Object();
  private int oldest;
  private int kept;
  private long retiredBytes;
  private volatile boolean running = true;

  Clients(long seed, int keep, String client, Counts counts, long began) {
    this.seed = seed;
    this.keep = keep;
    this.client = client;
    this.counts = counts;
    this.began = began;
  }

  /** Starts the threads: writers and tailers on {@code fs}, retired and compared with stock's. */
  void start(FileSystem fs, DistributedFileSystem stock, int writers, int readers, int tailers) {
    for (int i = 0; i < writers; i++) {
      start("writer-" + i, i, r -> write(fs, stock, r));
    }
    for (int i = 0; i < readers; i++) {
      start("reader-" + i, 100 + i, r -> read(fs, r));
    }
    for (int i = 0; i < tailers; i++) {
      start("tailer-" + i, 200 + i, r -> tail(fs, stock, r));
    }
  }

  /** Tells the threads to finish what they are doing and waits for them; one hung fails it. */
  void stop() throws InterruptedException {
    running = false;
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(5));
      if (t.isAlive()) {
        throw new IllegalStateException(t.getName() + " hung: not done 5 minutes after the end");
      }
    }
  }

  /** Every file written, in the order they were created. */
  List<Written> files() {
    return files;
  }

  /** Bytes of the files read back whole and deleted while the soak ran. */
  long retiredBytes() {
    synchronized (retiring) {
      return retiredBytes;
    }
  }

  /** What one client thread does over and over until the soak ends. */
  private interface Loop {
    void run(SplittableRandom random) throws Exception;
  }

  private void start(String name, long stream, Loop loop) {
    Thread t = new Thread(() -> {
      SplittableRandom random = new SplittableRandom(seed * 1_000_003 + stream);
      while (running) {
        try {
          loop.run(random);
        } catch (Exception e) {
          counts.clientsDied.add(name + " died", e);
          return;
        }
      }
    }, "soak-" + name);
    t.start();
    threads.add(t);
  }

  /**
   * Writes one file of random length in 64 KiB writes, hflushing after about one in 16; then
   * retires the oldest finished file if more than {@code keep} are.
   */
  private void write(FileSystem fs, DistributedFileSystem stock,
      SplittableRandom random) throws IOException {
    int n = fileNo.getAndIncrement();
    Written f = new Written(new Path("/soak/f" + n), seed * 7919 + n,
        1 + random.nextLong(3 * BLOCK + BLOCK / 2));
    byte[] chunk = new byte[64 * KIB];
    FSDataOutputStream out;
    try {
      out = fs.create(f.path, true, 4096, REPLICATION, BLOCK);
    } catch (IOException e) {
      counts.writeFailures.add("creating " + f.path, e);
      return;
    }
    files.add(f); // now there for readers and tailers to find
    try (FSDataOutputStream o = out) {
      for (long at = 0; at < f.length; ) {
        int len = (int) Math.min(chunk.length, f.length - at);
        SeededData.fill(f.seed, at, chunk, 0, len);
        o.write(chunk, 0, len);
        at += len;
        if (random.nextInt(16) == 0) {
          o.hflush();
          f.durable = at;
        }
      }
    } catch (IOException e) {
      f.failed = true;
      counts.writeFailures.add("writing " + f.path, e);
      return;
    }
    f.durable = f.length;
    f.closed = true;
    counts.filesWritten.incrementAndGet();
    counts.bytesWritten.addAndGet(f.length);
    retireOldest(stock);
  }

  /**
   * Past {@code keep} finished files, reads the oldest back with the stock client and deletes
   * it if every byte is right; one that is not is kept for the final account.
   */
  private void retireOldest(DistributedFileSystem stock) throws IOException {
    synchronized (retiring) {
      if (++kept <= keep) {
        return;
      }
      while (oldest < files.size() && !files.get(oldest).closed) {
        oldest++; // failed, or still being written: the final account takes those
      }
      if (oldest == files.size()) {
        return;
      }
      Written f = files.get(oldest++);
      kept--;
      if (SeededData.intactPrefix(stock, f.path, f.seed) == f.length) {
        f.retired = true;
        retiredBytes += f.length;
        stock.delete(f.path, false);
      }
    }
  }

  /** Reads a finished file whole, or four positional reads of 4 KiB to 1 MiB of it. */
  private void read(FileSystem fs, SplittableRandom random)
      throws InterruptedException {
    Written f = finished(random);
    if (f == null) {
      Thread.sleep(100);
      return;
    }
    byte[] got = new byte[MIB];
    byte[] want = new byte[MIB];
    try (FSDataInputStream in = fs.open(f.path)) {
      if (random.nextBoolean()) {
        long at = 0;
        for (int n; (n = in.read(got)) > 0; at += n) {
          counts.wrongBytes.addAndGet(wrong(got, n, f.seed, at, want));
        }
        if (at != f.length) {
          throw new IOException("read " + at + " bytes of " + f.length);
        }
        counts.bytesRead.addAndGet(at);
      } else {
        for (int k = 0; k < 4; k++) {
          int len = (int) Math.min(f.length, 4 * KIB << random.nextInt(9));
          long at = random.nextLong(f.length - len + 1);
          in.readFully(at, got, 0, len);
          counts.wrongBytes.addAndGet(wrong(got, len, f.seed, at, want));
          counts.bytesRead.addAndGet(len);
        }
      }
      counts.reads.incrementAndGet();
    } catch (IOException e) {
      if (!f.retired) { // deleted under the reader
        counts.readFailures.add("reading " + f.path, e);
      }
    }
  }

  private Written finished(SplittableRandom random) {
    for (int tries = 0; tries < 8 && !files.isEmpty(); tries++) {
      Written f = files.get(random.nextInt(files.size()));
      if (f.closed && !f.retired) {
        return f;
      }
    }
    return null;
  }

  /**
   * Follows the newest file still being written: its visible length as the stock client shows it
   * (never below what was hflushed, but it may go back from one open to the next) and as the
   * tested client's stream does (with Curtail's, never back), and that stream reading every byte
   * hflushed.
   */
  private void tail(FileSystem fs, DistributedFileSystem stock,
      SplittableRandom random) throws InterruptedException {
    Written f = null;
    for (int i = files.size() - 1; i >= 0 && f == null; i--) {
      Written w = files.get(i);
      f = w.closed || w.failed ? null : w;
    }
    if (f == null) {
      Thread.sleep(50);
      return;
    }
    byte[] got = new byte[MIB];
    byte[] want = new byte[MIB];
    long lastVisible = 0;
    long lastOwn = 0;
    while (running && !f.closed && !f.failed) {
      long flushed = f.durable; // hflushed before the opens below: HDFS makes it visible
      try {
        long visible;
        try (HdfsDataInputStream in = (HdfsDataInputStream) stock.open(f.path)) {
          visible = in.getVisibleLength();
        }
        if (visible < flushed) {
          counts.belowFlushed.add("tailing " + f.path, new IOException("visible length "
              + visible + " after hflush of " + flushed));
        }
        if (visible < lastVisible) {
          counts.wentBackAcrossOpens.incrementAndGet();
        }
        lastVisible = Math.max(lastVisible, visible);
        try (FSDataInputStream in = fs.open(f.path)) {
          long own = visibleLength(in);
          if (own < flushed) {
            counts.belowFlushed.add("tailing " + f.path, new IOException(client
                + "'s visible length " + own + " after hflush of " + flushed));
          }
          if (own < lastOwn) {
            counts.ownWentBack.add(String.format(Locale.ROOT, "tailing %s at %.2f min (%s)",
                f.path, (System.nanoTime() - began) / 60e9, java.time.LocalTime.now()),
                new IOException(client + "'s visible length "
                + own + " after an earlier open's " + lastOwn + " (hflushed " + flushed + ")"));
          }
          lastOwn = Math.max(lastOwn, own);
          for (long at = 0; at < flushed; ) {
            int len = (int) Math.min(got.length, flushed - at);
            in.readFully(at, got, 0, len);
            counts.wrongBytes.addAndGet(wrong(got, len, f.seed, at, want));
            at += len;
          }
        }
        counts.tailReads.incrementAndGet();
      } catch (IOException e) {
        if (!f.failed && !f.retired) {
          counts.tailFailures.add("tailing " + f.path, e);
        }
      }
      Thread.sleep(20 + random.nextInt(80));
    }
  }

  /** What {@code in}, a stream of a file being written, may read: stock's or Curtail's. */
  private static long visibleLength(FSDataInputStream in) {
    if (in instanceof HdfsDataInputStream) {
      return ((HdfsDataInputStream) in).getVisibleLength();
    }
    return ((CurtailInputStream) in.getWrappedStream()).getVisibleLength();
  }

  /** How many of {@code got[0, n)} differ from the seeded bytes at {@code at}. */
  private static long wrong(byte[] got, int n, long seed, long at, byte[] want) {
    SeededData.fill(seed, at, want, 0, n);
    long wrong = 0;
    for (int i = 0; i < n; i++) {
      wrong += got[i] != want[i] ? 1 : 0;
    }
    return wrong;
  }
}
