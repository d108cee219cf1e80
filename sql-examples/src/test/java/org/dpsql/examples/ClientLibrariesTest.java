package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.dpsql.jdbc.DpsqlDataSource;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The demo database reached the way Java applications reach databases: a HikariCP pool over
 * {@link DpsqlDataSource} shared by several threads, Spring's {@code JdbcTemplate} and {@code
 * NamedParameterJdbcTemplate} with bound values, and jOOQ's DSL, which binds every value as a
 * parameter ({@code LIMIT ?} included). Each check is an ordinary statement of an application;
 * every one is answered, with the shape of the answer checked (the values are noisy).
 */
class ClientLibrariesTest {
  private static final String BACKEND = "h2:mem:client-libraries-test;DB_CLOSE_DELAY=-1";
  private static Connection h2;
  private static HikariDataSource pool;

  @BeforeAll
  static void setUp() throws SQLException {
    h2 = DriverManager.getConnection("jdbc:" + BACKEND);
    DemoData.generate(h2, DemoData.Config.ofTrips(3_000));
    DpsqlDataSource dpsql = new DpsqlDataSource();
    dpsql.setUrl("jdbc:dpsql:" + BACKEND);
    dpsql.setPolicy("classpath:demo-policy.yaml");
    dpsql.setSeed("7");
    HikariConfig config = new HikariConfig();
    config.setDataSource(dpsql);
    config.setMaximumPoolSize(4);
    config.setReadOnly(true);
    config.setAutoCommit(true);
    config.setPoolName("dpsql-test");
    pool = new HikariDataSource(config);
  }

  @AfterAll
  static void tearDown() throws SQLException {
    if (pool != null) {
      pool.close();
    }
    try (Statement st = h2.createStatement()) {
      st.execute("DROP ALL OBJECTS");
    }
    h2.close();
  }

  /** A template on a fresh connection of its own (each dpsql connection has its own budget). */
  private static <T> T withConnection(SqlWork<T> work) throws Exception {
    try (Connection c = pool.getConnection()) {
      return work.run(c);
    }
  }

  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection c) throws Exception;
  }

  private static JdbcTemplate template(Connection c) {
    return new JdbcTemplate(new org.springframework.jdbc.datasource.SingleConnectionDataSource(c,
        true));
  }

  @Test
  void aPoolSharedByThreadsAnswersBoundSingleTableStatements() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> rows = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int from = t;
        rows.add(threads.submit(() -> withConnection(c -> {
          List<Map<String, Object>> r = template(c).queryForList(
              "SELECT STATE, COUNT(*) AS N FROM TRIPS WHERE HOUR BETWEEN ? AND ? GROUP BY STATE",
              from, from + 10);
          return r.size();
        })));
      }
      for (Future<Integer> f : rows) {
        assertEquals(4, f.get()); // the four declared states, whatever the data
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void jdbcTemplateBindsComparisonsInListsAndLike() throws Exception {
    withConnection(c -> {
      JdbcTemplate jdbc = template(c);
      Double n = jdbc.queryForObject("SELECT COUNT(*) FROM TRIPS WHERE PAYMENT = ? AND AGE >= ?",
          Double.class, "CARD", 30);
      assertTrue(n != null && Double.isFinite(n));
      List<Map<String, Object>> like = jdbc.queryForList(
          "SELECT COUNTY, COUNT(*) AS N FROM TRIPS WHERE COUNTY LIKE ? GROUP BY COUNTY", "San%");
      assertEquals(2, like.size(), like.toString()); // San Diego, San Francisco
      return null;
    });
  }

  @Test
  void namedParametersExpandInLists() throws Exception {
    withConnection(c -> {
      NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(template(c));
      List<Map<String, Object>> r = named.queryForList(
          "SELECT STATE, SUM(FARE) AS FARES FROM TRIPS WHERE STATE IN (:states) "
              + "AND HOUR < :hour GROUP BY STATE",
          new MapSqlParameterSource("states", List.of("NY", "TX")).addValue("hour", 12));
      assertEquals(2, r.size(), r.toString());
      return null;
    });
  }

  @Test
  void havingBoundsAReleasedCount() throws Exception {
    withConnection(c -> {
      List<Map<String, Object>> r = template(c).queryForList(
          "SELECT STATE, COUNT(*) AS N FROM TRIPS GROUP BY STATE HAVING COUNT(*) > ?", -1_000_000);
      assertEquals(4, r.size(), r.toString()); // every noisy count exceeds a million below zero
      return null;
    });
  }

  @Test
  void aParameterInsideASubquerySource() throws Exception {
    withConnection(c -> {
      Double avg = template(c).queryForObject("SELECT AVG(N) FROM (SELECT STATE, COUNT(*) AS N "
          + "FROM TRIPS WHERE HOUR >= ? GROUP BY STATE) T", Double.class, 6);
      assertTrue(avg != null && Double.isFinite(avg));
      return null;
    });
  }

  @Test
  void twoTimestampsBoundADailySeries() throws Exception {
    withConnection(c -> {
      List<Map<String, Object>> r = template(c).queryForList(
          "SELECT CAST(PICKUP_AT AS DATE) AS DAY, COUNT(*) AS N FROM TRIPS "
              + "WHERE PICKUP_AT >= ? AND PICKUP_AT < ? GROUP BY CAST(PICKUP_AT AS DATE) "
              + "ORDER BY DAY",
          Timestamp.valueOf(LocalDateTime.of(2025, 3, 1, 0, 0)),
          Timestamp.valueOf(LocalDateTime.of(2025, 3, 8, 0, 0)));
      assertEquals(7, r.size(), r.toString());
      return null;
    });
  }

  @Test
  void caseAndSelectListArithmeticTakeParameters() throws Exception {
    withConnection(c -> {
      List<Map<String, Object>> r = template(c).queryForList(
          "SELECT CASE WHEN HOUR < ? THEN 'morning' ELSE 'later' END AS PART, COUNT(*) AS N "
              + "FROM TRIPS GROUP BY 1", 12);
      assertEquals(2, r.size(), r.toString());
      Double scaled = template(c).queryForObject("SELECT SUM(FARE) * ? FROM TRIPS",
          Double.class, 100);
      assertTrue(scaled != null && Double.isFinite(scaled));
      return null;
    });
  }

  @Test
  void limitOffsetAndFetchTakeParameters() throws Exception {
    withConnection(c -> {
      List<Map<String, Object>> r = template(c).queryForList(
          "SELECT STATE, COUNT(*) AS N FROM TRIPS GROUP BY STATE ORDER BY STATE "
              + "OFFSET ? ROWS FETCH NEXT ? ROWS ONLY", 1, 2);
      assertEquals(List.of("IL", "NY"), r.stream().map(m -> m.get("STATE")).toList());
      List<Map<String, Object>> limited = template(c).queryForList(
          "SELECT PAYMENT, COUNT(*) AS N FROM TRIPS GROUP BY PAYMENT ORDER BY PAYMENT LIMIT ?", 2);
      assertEquals(2, limited.size());
      return null;
    });
  }

  @Test
  void jooqRendersBindVariablesLimitIncluded() throws Exception {
    withConnection(c -> {
      DSLContext ctx = DSL.using(c, SQLDialect.H2);
      org.jooq.Field<String> state = field(name("STATE"), String.class);
      org.jooq.Field<String> payment = field(name("PAYMENT"), String.class);
      org.jooq.Field<Integer> hour = field(name("HOUR"), Integer.class);
      var query = ctx.select(state, count()).from(table(name("TRIPS")))
          .where(payment.eq("CARD")).and(hour.between(8, 20))
          .groupBy(state).orderBy(count().desc()).limit(3);
      assertTrue(query.getSQL().contains("?"), query.getSQL()); // bound, not inlined
      Result<Record2<String, Integer>> r = query.fetch();
      assertEquals(3, r.size(), r.toString());
      return null;
    });
  }

  @Test
  void parameterMetaDataReportsCountAndTypes() throws Exception {
    withConnection(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT CAST(PICKUP_AT AS DATE) AS DAY, "
          + "COUNT(*) FROM TRIPS WHERE CAST(PICKUP_AT AS DATE) >= ? AND HOUR < ? "
          + "GROUP BY CAST(PICKUP_AT AS DATE) HAVING COUNT(*) > ?")) {
        ParameterMetaData md = ps.getParameterMetaData();
        assertEquals(3, md.getParameterCount());
        assertEquals(Types.DATE, md.getParameterType(1));
        assertEquals(Types.INTEGER, md.getParameterType(2));
        ps.setObject(1, LocalDate.of(2025, 12, 1));
        ps.setInt(2, 12);
        ps.setInt(3, 0);
        ps.executeQuery().close();
      }
      return null;
    });
  }

  @Test
  void aBatchOfAPreparedAggregateIsRefusedClearly() throws Exception {
    withConnection(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT COUNT(*) FROM TRIPS WHERE HOUR = ?")) {
        ps.setInt(1, 3);
        ps.addBatch();
        SQLException e = assertThrows(SQLException.class, ps::executeBatch);
        assertTrue(e instanceof SQLFeatureNotSupportedException
            || e.getCause() instanceof SQLFeatureNotSupportedException
            || "0A000".equals(e.getSQLState()) || "XDP03".equals(e.getSQLState()),
            e + " " + e.getSQLState());
      }
      return null;
    });
  }

  @Test
  void aBoundValueOffTheTimeBinsIsRefusedAtExecuteNamingTheParameter() throws Exception {
    withConnection(c -> {
      DataAccessException e = assertThrows(DataAccessException.class, () ->
          template(c).queryForList("SELECT STATE, COUNT(*) AS N FROM TRIPS WHERE HOUR >= ? "
              + "AND PICKUP_AT >= ? GROUP BY STATE HAVING COUNT(*) > ?", 3,
              Timestamp.valueOf(LocalDateTime.of(2025, 3, 1, 10, 30)), 0));
      SQLException sql = (SQLException) e.getCause();
      assertEquals("XDP03", sql.getSQLState(), sql.getMessage());
      assertTrue(sql.getMessage().contains("parameter 2"), sql.getMessage());
      return null;
    });
  }
}
