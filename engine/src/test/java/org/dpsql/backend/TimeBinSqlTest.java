package org.dpsql.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.policy.TimeDomain;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The backend's bin index equals {@link TimeDomain#cellOf} for every value inside the range filter,
 * on H2 (and on PostgreSQL when {@code DPSQL_TEST_PG_URL} is set), for random instants over a
 * domain spanning a leap year, and the range filter keeps exactly the instants of the domain.
 */
class TimeBinSqlTest {
  private static final int ROWS = 3000;

  @ParameterizedTest
  @EnumSource(TimeDomain.Unit.class)
  void binIndexAgreesWithTheCalendarOnH2(TimeDomain.Unit unit) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:bins"
        + UUID.randomUUID().toString().replace("-", ""))) {
      check(c, unit);
    }
  }

  @ParameterizedTest
  @EnumSource(TimeDomain.Unit.class)
  void binIndexAgreesWithTheCalendarOnPostgres(TimeDomain.Unit unit) throws Exception {
    String url = System.getenv("DPSQL_TEST_PG_URL");
    org.junit.jupiter.api.Assumptions.assumeTrue(url != null,
        "DPSQL_TEST_PG_URL not set: PostgreSQL check skipped");
    try (Connection c = DriverManager.getConnection(url,
        System.getenv().getOrDefault("DPSQL_TEST_PG_USER", "postgres"),
        System.getenv().getOrDefault("DPSQL_TEST_PG_PASSWORD", ""))) {
      c.setAutoCommit(false); // the temporary table lives in this transaction
      check(c, unit);
      c.rollback();
    }
  }

  private static void check(Connection c, TimeDomain.Unit unit) throws Exception {
    // starts on a Monday (for weeks) in 2023, spans the leap year 2024 into 2025
    LocalDateTime min = TimeDomain.binStartOf(LocalDateTime.of(2023, 5, 2, 0, 0), unit);
    TimeDomain d = new TimeDomain(min, LocalDateTime.of(2025, 2, 10, 7, 0), unit);
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TEMPORARY TABLE T (ID INT, TS TIMESTAMP, D DATE)");
    }
    SplittableRandom rnd = new SplittableRandom(unit.ordinal());
    LocalDateTime from = min.minusDays(40);
    long span = java.time.Duration.between(from, d.end().plusDays(40)).toMinutes();
    LocalDateTime[] values = new LocalDateTime[ROWS];
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO T VALUES (?, ?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        // a few rows exactly on bin starts, the others anywhere (outside the domain too)
        values[i] = i % 10 == 0 ? d.binStart(rnd.nextInt(d.cells()))
            : from.plusMinutes(rnd.nextLong(span));
        ps.setInt(1, i);
        ps.setObject(2, values[i]);
        ps.setObject(3, values[i].toLocalDate());
        ps.addBatch();
      }
      ps.executeBatch();
    }
    for (boolean date : new boolean[] {false, true}) {
      if (date && unit == TimeDomain.Unit.HOUR) {
        continue; // a DATE column has no hour bins
      }
      String col = date ? "D" : "TS";
      String sql = "SELECT ID, " + TimeBinSql.binIndex(col, d) + " FROM T WHERE "
          + TimeBinSql.range(col, d, date) + " ORDER BY ID";
      int expectedRows = 0;
      for (LocalDateTime v : values) {
        expectedRows += d.cellOf(date ? v.toLocalDate().atStartOfDay() : v) >= 0 ? 1 : 0;
      }
      int rows = 0;
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          LocalDateTime v = values[rs.getInt(1)];
          LocalDateTime value = date ? v.toLocalDate().atStartOfDay() : v;
          assertEquals(d.cellOf(value), rs.getLong(2), unit + " " + col + " " + value);
          rows++;
        }
      }
      assertEquals(expectedRows, rows, unit + " " + col + ": rows inside the range");
    }
  }
}
