package org.dpsql.server;

import java.util.concurrent.Callable;

/**
 * The authenticated analyst on whose behalf the current thread handles one remote call. Set by
 * {@link ProtobufEndpoint} around the call from the HTTP-authenticated user, and read by {@link
 * AnalystMeta}; nothing a client sends in the request itself can set it.
 *
 * <p>Guarantee: outside {@link #callAs} the thread has no analyst, and {@link #require} fails.
 */
final class CurrentAnalyst {
  private static final ThreadLocal<String> ANALYST = new ThreadLocal<>();

  private CurrentAnalyst() {}

  /** Runs {@code body} as {@code analyst}, restoring the previous state afterwards. */
  static <T> T callAs(String analyst, Callable<T> body) throws Exception {
    String previous = ANALYST.get();
    ANALYST.set(analyst);
    try {
      return body.call();
    } finally {
      if (previous == null) {
        ANALYST.remove();
      } else {
        ANALYST.set(previous);
      }
    }
  }

  /**
   * The analyst of the current call.
   *
   * @throws IllegalStateException if the thread is not handling an authenticated call
   */
  static String require() {
    String analyst = ANALYST.get();
    if (analyst == null) {
      throw new IllegalStateException("no authenticated analyst on this thread");
    }
    return analyst;
  }
}
