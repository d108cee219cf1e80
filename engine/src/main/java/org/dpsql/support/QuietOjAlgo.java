package org.dpsql.support;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Loads ojAlgo without letting it write to the application's console.
 *
 * <p>ojAlgo prints a hardware-profile notice on stdout when it first loads (unless told not to),
 * and its MIP search writes diagnostics to the stderr it captured when its logger class was
 * initialised. A JDBC driver must not write to the application's console, so {@link #ensure()}
 * initialises that logger against discarding streams and restores the application's streams at
 * once. If the application initialised ojAlgo first, its own choice stands. Output written by
 * another thread during those few microseconds is lost. Every dpsql class that uses ojAlgo calls
 * {@link #ensure()} from its static initialiser. Idempotent and thread-safe.
 */
public final class QuietOjAlgo {
  private QuietOjAlgo() {}

  private static final class Holder {
    static {
      if (System.getProperty("shut.up.ojAlgo") == null) {
        System.setProperty("shut.up.ojAlgo", "true");
      }
      PrintStream out = System.out;
      PrintStream err = System.err;
      PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
      try {
        System.setOut(discard);
        System.setErr(discard);
        Class.forName("org.ojalgo.netio.BasicLogger", true, QuietOjAlgo.class.getClassLoader());
        Class.forName("org.ojalgo.OjAlgoUtils", true, QuietOjAlgo.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new ExceptionInInitializerError(e);
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
    }

    static void touch() {}
  }

  /** Initialises ojAlgo quietly (once). */
  public static void ensure() {
    Holder.touch();
  }
}
