package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.dpsql.jdbc.DatabaseMetaDataSweepTest;
import org.dpsql.jdbc.MetaDataSweep;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the thin client ({@code jdbc:dpsql:remote:}), every DatabaseMetaData method answers, the
 * catalog is the policy's view, and INFORMATION_SCHEMA lists the same columns, free of charge.
 */
class ThinClientMetaDataTest {
  @TempDir static Path dir;
  static DpsqlServer server;

  @BeforeAll
  static void start() throws Exception {
    String backend = TestServers.demoBackend("thin-meta-test", 500);
    Path users = TestServers.users(dir, "alice 1");
    server = DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), 7L));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Connection connect() throws Exception {
    String url = server.jdbcUrl().replace("jdbc:avatica:remote:", "jdbc:dpsql:remote:")
        .replace(";serialization=protobuf", "");
    return DriverManager.getConnection(url, "alice", "pw-alice");
  }

  @Test
  void everyMethodAnswersWithoutARuntimeException() throws Exception {
    try (Connection c = connect()) {
      MetaDataSweep.Result r = MetaDataSweep.sweep(c);
      assertTrue(r.methodsCalled() >= 170, "methods called: " + r.methodsCalled());
      assertEquals(List.of(), r.failures());
      assertEquals(List.of(), r.notSupported(), "nothing is left 'not supported'");
      DatabaseMetaDataSweepTest.assertReadOnlyForwardOnly(c.getMetaData());
      assertEquals("dpsql", c.getMetaData().getDatabaseProductName());
    }
  }

  @Test
  void catalogAndInformationSchemaShowThePolicysView() throws Exception {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      DatabaseMetaData md = c.getMetaData();
      Set<String> viaMeta = new TreeSet<>();
      try (ResultSet rs = md.getColumns(null, "PUBLIC", "TRIPS", "%")) {
        while (rs.next()) {
          viaMeta.add(rs.getString("COLUMN_NAME"));
        }
      }
      Set<String> viaSql = new TreeSet<>();
      try (ResultSet rs = st.executeQuery("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS "
          + "WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME = 'TRIPS'")) {
        while (rs.next()) {
          viaSql.add(rs.getString(1));
        }
      }
      assertEquals(viaMeta, viaSql);
      assertTrue(viaMeta.contains("FARE"), viaMeta.toString());
      assertFalse(viaMeta.contains("RIDER_ID") || viaMeta.contains("TRIP_ID"), viaMeta.toString());
      Object spent = TestServers.single(c, "SELECT SPENT FROM DPSQL.BUDGET");
      assertEquals(0, ((java.math.BigDecimal) spent).signum(), "catalog queries are free");
    }
  }
}
