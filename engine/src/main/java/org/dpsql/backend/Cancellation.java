package org.dpsql.backend;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The cancellation of the statement the current thread runs: the JDBC driver passes the flag
 * {@link java.sql.Statement#cancel()} sets ({@link #watching}), and a long in-JVM scan ({@link
 * StreamingMeasurement}) polls {@link #requested()} and stops. A thread interrupt counts as a
 * cancellation too. Guarantees: the flag is seen only by the thread that runs the statement, and
 * only while it runs; a cancelled measurement throws before anything is charged.
 */
public final class Cancellation {
  private static final ThreadLocal<AtomicBoolean> FLAG = new ThreadLocal<>();

  private Cancellation() {}

  /** What runs while the flag is watched. */
  @FunctionalInterface
  public interface Body<T> {
    T run() throws SQLException;
  }

  /**
   * Runs {@code body} with {@code flag} (null: none) as this thread's cancellation. The caller
   * clears the flag when its statement starts (before it is prepared), so that a cancel of an
   * earlier statement does not stop this one and a cancel during preparation is not lost.
   */
  public static <T> T watching(AtomicBoolean flag, Body<T> body) throws SQLException {
    AtomicBoolean outer = FLAG.get();
    FLAG.set(flag);
    try {
      return body.run();
    } finally {
      if (outer == null) {
        FLAG.remove();
      } else {
        FLAG.set(outer);
      }
    }
  }

  /** Whether the statement this thread runs has been cancelled (or the thread interrupted). */
  public static boolean requested() {
    AtomicBoolean f = FLAG.get();
    return (f != null && f.get()) || Thread.currentThread().isInterrupted();
  }
}
