package io.curtail.bench.soak;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** What the clients did and met, counted while they run; every field may be added to by any. */
final class Counts {
  final AtomicLong filesWritten = new AtomicLong();
  final AtomicLong bytesWritten = new AtomicLong();
  final AtomicLong reads = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong tailReads = new AtomicLong();
  final AtomicLong wrongBytes = new AtomicLong();
  final Tally writeFailures = new Tally("writes failed");
  final Tally readFailures = new Tally("reads failed");
  final Tally tailFailures = new Tally("tailing reads failed");
  final Tally belowFlushed = new Tally("visible length below what was hflushed");
  /** Opens whose visible length was below the one before: stock's, and the tested client's. */
  final AtomicLong wentBackAcrossOpens = new AtomicLong();
  final Tally ownWentBack = new Tally("visible length less than an earlier open's");
  final Tally clientsDied = new Tally("client threads died");

  List<Tally> tallies() {
    return List.of(writeFailures, readFailures, tailFailures, belowFlushed, ownWentBack,
        clientsDied);
  }

  /** Failures of one kind: how many, and the first few as examples. */
  static final class Tally {
    final String name;
    final AtomicLong count = new AtomicLong();
    final List<String> examples = new CopyOnWriteArrayList<>();

    Tally(String name) {
      this.name = name;
    }

    void add(String what, Exception e) {
      count.incrementAndGet();
      if (examples.size() < 3) {
        String message = String.valueOf(e.getMessage());
        int eol = message.indexOf('\n');
        examples.add(what + ": " + e.getClass().getSimpleName() + ": "
            + (eol < 0 ? message : message.substring(0, eol)));
      }
    }

    long get() {
      return count.get();
    }

    @Override
    public String toString() {
      return count.toString();
    }
  }
}
