package io.curtail.bench;

import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Other tenants: a constant number of HDFS streams kept open by stock clients, each writing a file,
 * reading it back and deleting it, over and over, until closed (the paper's background-load job,
 * §6.1). It loads the cluster alike for every mode; its own errors are logged, not fatal.
 */
final class BackgroundLoad implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundLoad.class);
  private static final long FILE_BYTES = 4L * 1024 * 1024;

  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong bytes = new AtomicLong();
  private final List<Thread> threads = new ArrayList<>();
  private final FileSystem fs;

  private BackgroundLoad(FileSystem fs) {
    this.fs = fs;
  }

  /** Starts {@code streams} streams of the stock client configured by {@code conf}. */
  static BackgroundLoad start(URI uri, Configuration conf, int streams, Path dir)
      throws IOException {
    BackgroundLoad load =
        new BackgroundLoad(streams == 0 ? null : FileSystem.newInstance(uri, conf));
    for (int i = 0; i < streams; i++) {
      Path file = new Path(dir, "bg-" + i);
      Thread t = new Thread(() -> load.loop(file), "curtail-bench-background-" + i);
      t.setDaemon(true);
      load.threads.add(t);
      t.start();
    }
    return load;
  }

  private void loop(Path file) {
    for (long n = 0; !stop.get(); n++) {
      try {
        SeededData.create(fs, file, n, FILE_BYTES);
        if (stop.get()) {
          break;
        }
        SeededData.verify(fs, file, n, FILE_BYTES);
        bytes.addAndGet(2 * FILE_BYTES);
      } catch (IOException e) {
        if (!stop.get()) {
          LOG.warn("Background stream failed file={}; continuing", file, e);
        }
      }
    }
  }

  /** Bytes the background streams wrote and read back so far. */
  long bytes() {
    return bytes.get();
  }

  @Override
  public void close() throws IOException {
    stop.set(true);
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (fs != null) {
      fs.close();
    }
  }
}
