package org.dpsql.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The latest lines of the server's audit log, read from the end of the file while the server
 * appends to it.
 *
 * <p>Guarantees: it only reads, through its own file handle, so it never holds the audit log's
 * lock or delays a statement's audit line; a last line still being written (no newline yet) is
 * ignored; lines that are not the audit log's JSON objects are skipped and counted; at most
 * {@code maxBytes} from the end of the file are read per call, so a large log costs a bounded
 * read.
 */
public final class AuditTail {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CHUNK = 64 * 1024;

  private final Path file;
  private final long maxBytes;

  /**
   * One audit line.
   *
   * @param time UTC, ISO-8601, as written
   * @param analyst the analyst
   * @param request the request kind ({@code prepare}, {@code execute}, ...)
   * @param connection the connection id
   * @param sql the SQL as logged (at most 2,000 characters)
   * @param sqlTruncated whether the SQL was cut
   * @param outcome {@code ok} or the SQLState the client received
   * @param cost the cost charged, as text ("ε=0.1", "ρ=0.02", "0")
   * @param durationMs the duration in milliseconds, as written
   */
  public record Line(String time, String analyst, String request, String connection, String sql,
      boolean sqlTruncated, String outcome, String cost, String durationMs) {}

  /**
   * The lines found, newest first.
   *
   * @param lines the matching lines, newest first
   * @param scanned lines read (matching or not)
   * @param skipped lines that were not audit records
   * @param truncated whether older lines were not read (the byte limit)
   */
  public record Result(List<Line> lines, long scanned, long skipped, boolean truncated) {}

  /**
   * @param file the audit log
   * @param maxBytes the most bytes read from its end per call
   */
  public AuditTail(Path file, long maxBytes) {
    this.file = Objects.requireNonNull(file, "file");
    if (maxBytes < CHUNK) {
      throw new IllegalArgumentException("maxBytes must be at least " + CHUNK);
    }
    this.maxBytes = maxBytes;
  }

  /**
   * The newest {@code limit} lines accepted by {@code filter}, newest first.
   *
   * @throws IOException if the file cannot be read
   */
  public Result latest(int limit, Predicate<Line> filter) throws IOException {
    List<Line> out = new ArrayList<>();
    long scanned = 0;
    long skipped = 0;
    if (!Files.exists(file)) {
      return new Result(out, 0, 0, false);
    }
    boolean truncated = false;
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long pos = in.length();
      long floor = Math.max(0, pos - maxBytes);
      byte[] carry = new byte[0]; // the end of a line that begins before the bytes read so far
      boolean unfinishedSkipped = false;
      while (pos > floor && out.size() < limit) {
        int n = (int) Math.min(CHUNK, pos - floor);
        pos -= n;
        byte[] buf = new byte[n + carry.length];
        in.seek(pos);
        in.readFully(buf, 0, n);
        System.arraycopy(carry, 0, buf, n, carry.length);
        carry = new byte[0];
        int lineEnd = buf.length; // exclusive; buf ends where a line ends
        if (!unfinishedSkipped) {
          // the last line has no newline yet while it is being written: leave it out
          int last = lastNewline(buf, buf.length - 1);
          if (last < 0) {
            continue; // no line ends in these bytes: read further back
          }
          lineEnd = last;
          unfinishedSkipped = true;
        }
        int i = lineEnd - 1; // the last byte of the current line
        while (out.size() < limit && i >= 0) {
          int start = lastNewline(buf, i);
          if (start < 0 && pos > 0) {
            if (pos > floor) {
              carry = java.util.Arrays.copyOfRange(buf, 0, i + 1); // begins further back
            } else {
              truncated = true; // begins before the byte limit
            }
            break;
          }
          String text = new String(buf, start + 1, i - start, StandardCharsets.UTF_8);
          i = start - 1;
          if (text.isBlank()) {
            continue;
          }
          scanned++;
          Line line = parse(text);
          if (line == null) {
            skipped++;
          } else if (filter.test(line)) {
            out.add(line);
          }
        }
      }
      truncated |= pos > 0 && out.size() < limit;
      return new Result(out, scanned, skipped, truncated);
    } catch (NoSuchFileException e) {
      return new Result(out, scanned, skipped, false);
    }
  }

  /** The index of the last '\n' at or before {@code from}, or -1. */
  private static int lastNewline(byte[] b, int from) {
    for (int i = from; i >= 0; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** One line as an audit record, or null if it is not one. */
  static Line parse(String text) {
    try {
      JsonNode n = JSON.readTree(text);
      if (n == null || !n.isObject() || !n.hasNonNull("analyst") || !n.hasNonNull("outcome")) {
        return null;
      }
      JsonNode cost = n.path("cost");
      return new Line(n.path("time").asText(""), n.path("analyst").asText(""),
          n.path("request").asText(""), n.path("connection").asText(""), n.path("sql").asText(""),
          n.path("sql_truncated").asBoolean(false), n.path("outcome").asText(""),
          costText(cost), n.path("duration_ms").asText(""));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String costText(JsonNode cost) {
    List<String> parts = new ArrayList<>();
    for (String[] c : new String[][] {{"epsilon", "ε"}, {"delta", "δ"}, {"rho", "ρ"}}) {
      String v = cost.path(c[0]).asText("0");
      try {
        java.math.BigDecimal d = new java.math.BigDecimal(v);
        if (d.signum() != 0) {
          parts.add(c[1] + "=" + d.stripTrailingZeros().toPlainString());
        }
      } catch (NumberFormatException e) {
        parts.add(c[1] + "=?");
      }
    }
    return parts.isEmpty() ? "0" : String.join(", ", parts);
  }
}
