package org.dpsql.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Objects;
import org.dpsql.accounting.PrivacyCost;

/**
 * The server's audit log: one JSON line per statement an analyst sent (prepare, execute, prepare
 * and execute, batch), appended to a file the data owner names ({@code --audit}).
 *
 * <p>Each line has {@code time} (UTC, ISO-8601), {@code analyst}, {@code request}, {@code
 * connection}, {@code sql} (at most {@value #MAX_SQL_CHARS} characters, {@code sql_truncated} says
 * whether it was cut), {@code outcome} ({@code ok} or the SQLState the client received), {@code
 * cost} (the exact ε, δ and ρ charged by the statement, as decimal strings) and {@code
 * duration_ms}.
 *
 * <p>Guarantees: lines are appended whole and never interleave; {@link #record} returns only after
 * the line was handed to the operating system (it survives the server process being killed);
 * a new file is created readable and writable by the server's user only (on POSIX file systems);
 * the file is never reachable through SQL (it lives outside every database the server opens).
 */
final class AuditLog implements AutoCloseable {
  /** Longest SQL text kept per line. */
  static final int MAX_SQL_CHARS = 2_000;

  private final Path file;
  private final FileChannel channel;
  private final Clock clock;

  private AuditLog(Path file, FileChannel channel, Clock clock) {
    this.file = file;
    this.channel = channel;
    this.clock = clock;
  }

  /**
   * Opens {@code file} for appending, creating it (and its directory) if needed.
   *
   * @throws IOException if it cannot be opened
   */
  static AuditLog open(Path file, Clock clock) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(clock, "clock");
    Path absolute = file.toAbsolutePath();
    if (absolute.getParent() != null) {
      Files.createDirectories(absolute.getParent());
    }
    if (!Files.exists(absolute)
        && FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      try {
        Files.createFile(absolute, PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------")));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // created meanwhile: append to it
      }
    }
    FileChannel channel = FileChannel.open(absolute, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    return new AuditLog(absolute, channel, clock);
  }

  /** The file written. */
  Path file() {
    return file;
  }

  /**
   * Appends one statement's line.
   *
   * @throws UncheckedIOException if the line cannot be written
   */
  void record(String analyst, String request, String connection, String sql, String outcome,
      PrivacyCost cost, long durationNanos) {
    String text = sql == null ? "" : sql;
    boolean truncated = text.length() > MAX_SQL_CHARS;
    if (truncated) {
      int end = MAX_SQL_CHARS;
      if (Character.isHighSurrogate(text.charAt(end - 1))) {
        end--; // never split a surrogate pair
      }
      text = text.substring(0, end);
    }
    StringBuilder b = new StringBuilder(256 + text.length());
    b.append("{\"time\":");
    string(b, clock.instant().toString());
    b.append(",\"analyst\":");
    string(b, analyst);
    b.append(",\"request\":");
    string(b, request);
    b.append(",\"connection\":");
    string(b, connection);
    b.append(",\"sql\":");
    string(b, text);
    b.append(",\"sql_truncated\":").append(truncated);
    b.append(",\"outcome\":");
    string(b, outcome);
    b.append(",\"cost\":{\"epsilon\":");
    string(b, cost.epsilon().toPlainString());
    b.append(",\"delta\":");
    string(b, cost.delta().toPlainString());
    b.append(",\"rho\":");
    string(b, cost.rho().toPlainString());
    b.append("},\"duration_ms\":")
        .append(String.format(java.util.Locale.ROOT, "%.3f", durationNanos / 1e6));
    b.append("}\n");
    ByteBuffer bytes = ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8));
    synchronized (this) {
      try {
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the audit log " + file, e);
      }
    }
  }

  /** Appends {@code s} as a JSON string literal. */
  static void string(StringBuilder b, String s) {
    if (s == null) {
      b.append("null");
      return;
    }
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)
              && !validPair(s, i)) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  /** Whether the surrogate at {@code i} is half of a well-formed pair. */
  private static boolean validPair(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }
}
