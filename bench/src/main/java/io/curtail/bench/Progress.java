package io.curtail.bench;

import java.io.PrintStream;

/**
 * A progress bar on a terminal ({@code [#####.....] 7/18 write-slow-disk stock round 1/2, 1:02}),
 * or one plain line per step when output goes to a file or CI log.
 */
final class Progress {
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final boolean terminal;
  private final long startNanos = System.nanoTime();
  private int total;
  private int done;

  Progress(PrintStream out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  void start(int steps) {
    this.total = steps;
    this.done = 0;
  }

  void step(String what) {
    int filled = total == 0 ? WIDTH : done * WIDTH / total;
    StringBuilder bar = new StringBuilder("[");
    for (int i = 0; i < WIDTH; i++) {
      bar.append(i < filled ? '#' : '.');
    }
    long s = (System.nanoTime() - startNanos) / 1_000_000_000L;
    String line = bar + "] " + (done + 1) + "/" + (total == 0 ? "?" : total) + " " + what + ", "
        + String.format("%d:%02d", s / 60, s % 60);
    if (terminal) {
      out.print("\r" + line + "\u001b[K");
    } else {
      out.println(line);
    }
    out.flush();
    done++;
  }

  void done() {
    if (terminal) {
      out.print("\r\u001b[K");
      out.flush();
    }
  }
}
