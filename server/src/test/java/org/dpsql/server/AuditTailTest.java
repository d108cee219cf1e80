package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.server.console.AuditTail;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console reads what the {@link AuditLog} writes, from the end, while it is being written. */
class AuditTailTest {
  @TempDir Path dir;

  @Test
  void readsTheNewestLinesFirstSkipsAnUnfinishedLineAndGarbageAndFilters() throws Exception {
    Path file = dir.resolve("audit.log");
    try (AuditLog log = AuditLog.open(file, Clock.systemUTC())) {
      for (int i = 0; i < 20; i++) {
        log.record(i % 2 == 0 ? "ann" : "ben", "prepare_and_execute", "c1",
            "SELECT " + i + " -- \"quoted\" <b>\n", i % 5 == 0 ? "XDP01" : "ok",
            PrivacyCost.zcdp(new BigDecimal("0.0" + (i % 9 + 1))), 1_500_000);
      }
    }
    Files.writeString(file, "not json\n{\"also\": \"not an audit line\"}\n{\"time\":\"2026-",
        StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    AuditTail tail = new AuditTail(file, 1 << 20);
    AuditTail.Result all = tail.latest(100, l -> true);
    assertEquals(20, all.lines().size());
    assertEquals(2, all.skipped());
    assertFalse(all.truncated());
    assertEquals("SELECT 19 -- \"quoted\" <b>\n", all.lines().get(0).sql());
    assertEquals("ben", all.lines().get(0).analyst());
    assertEquals("ρ=0.02", all.lines().get(0).cost());
    assertEquals("1.5", all.lines().get(0).durationMs());
    assertEquals("SELECT 0 -- \"quoted\" <b>\n", all.lines().get(19).sql());

    List<AuditTail.Line> three = tail.latest(3, l -> true).lines();
    assertEquals(List.of("SELECT 19", "SELECT 18", "SELECT 17"),
        three.stream().map(l -> l.sql().substring(0, 9)).toList());
    List<AuditTail.Line> refused = tail.latest(100, l -> l.outcome().equals("XDP01")).lines();
    assertEquals(4, refused.size());
    assertTrue(refused.stream().allMatch(l -> l.outcome().equals("XDP01")));
    assertEquals(0, new AuditTail(dir.resolve("missing.log"), 1 << 20)
        .latest(10, l -> true).lines().size());
  }

  @Test
  void linesLongerThanAChunkAndTheByteLimit() throws Exception {
    Path file = dir.resolve("long.log");
    // 300 KB in UTF-8, logged cut to 2000 characters (4 KB): 40 of them make 160 KB
    String longSql = "SELECT '" + "é".repeat(150_000) + "'";
    try (AuditLog log = AuditLog.open(file, Clock.systemUTC())) {
      log.record("ann", "prepare", "c1", "first", "ok", PrivacyCost.ZERO, 1);
      for (int i = 0; i < 40; i++) {
        log.record("ann", "prepare", "c1", longSql + i, "ok", PrivacyCost.ZERO, 1);
      }
      log.record("ann", "prepare", "c1", "last", "ok", PrivacyCost.ZERO, 1);
    }
    AuditTail.Result r = new AuditTail(file, 1 << 20).latest(100, l -> true);
    assertEquals(42, r.lines().size());
    assertEquals("last", r.lines().get(0).sql());
    assertEquals("first", r.lines().get(41).sql());
    assertTrue(r.lines().get(1).sqlTruncated());
    assertEquals(AuditLog.MAX_SQL_CHARS, r.lines().get(1).sql().length());
    // a one-chunk byte limit reads only the newest lines, and says so
    long size = Files.size(file);
    AuditTail.Result limited = new AuditTail(file, 64 * 1024).latest(100, l -> true);
    assertTrue(size > 2 * 64 * 1024);
    assertTrue(limited.truncated());
    assertTrue(limited.lines().size() < 20 && limited.lines().size() > 10, limited.toString());
    assertTrue(limited.lines().stream().skip(1).allMatch(l -> l.sql().startsWith("SELECT 'é")));
    assertEquals("last", limited.lines().get(0).sql());
  }
}
