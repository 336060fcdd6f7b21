package io.curtail.datanode.report;

/** A bounded FIFO of longs, allocation-free once made. Not thread-safe: its owner locks. */
final class LongQueue {
  private final long[] items;
  private int head;
  private int size;

  LongQueue(int capacity) {
    this.items = new long[capacity];
  }

  /** Adds {@code value} at the tail; false (and nothing added) if the queue is full. */
  boolean offer(long value) {
    if (size == items.length) {
      return false;
    }
    items[(head + size) % items.length] = value;
    size++;
    return true;
  }

  /** Replaces the tail's value; the queue must not be empty. */
  void setLast(long value) {
    items[(head + size - 1) % items.length] = value;
  }

  /** The tail's value; the queue must not be empty. */
  long last() {
    return items[(head + size - 1) % items.length];
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Removes and returns the head; the queue must not be empty. */
  long poll() {
    long value = items[head];
    head = (head + 1) % items.length;
    size--;
    return value;
  }

  void clear() {
    head = 0;
    size = 0;
  }
}
