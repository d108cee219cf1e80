package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.jooq.Field;
import org.jooq.Meta;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * INFORMATION_SCHEMA on a dpsql connection to the demo: it shows what the policy exposes, exactly
 * as DatabaseMetaData does (private tables with only their declared columns, public tables, the
 * DPSQL system tables), costs nothing, and is what jOOQ's {@code meta()} reads for an H2 dialect.
 */
class InformationSchemaTest {
  private static final String BACKEND = "h2:mem:information-schema-test;DB_CLOSE_DELAY=-1";
  private static Connection h2;

  @BeforeAll
  static void setUp() throws SQLException {
    h2 = DriverManager.getConnection("jdbc:" + BACKEND);
    DemoData.generate(h2, DemoData.Config.ofTrips(2_000));
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement st = h2.createStatement()) {
      st.execute("DROP ALL OBJECTS");
    }
    h2.close();
  }

  static Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", "classpath:demo-policy.yaml");
    p.setProperty("seed", "1");
    return DriverManager.getConnection("jdbc:dpsql:" + BACKEND, p);
  }

  @Test
  void columnsMatchDatabaseMetaDataAndHideUndeclaredColumns() throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      Set<String> viaSql = new TreeSet<>();
      try (ResultSet rs = st.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, "
          + "ORDINAL_POSITION FROM INFORMATION_SCHEMA.COLUMNS "
          + "WHERE TABLE_SCHEMA IN ('PUBLIC', 'DPSQL')")) {
        while (rs.next()) {
          viaSql.add(rs.getString(1) + "." + rs.getString(2) + "." + rs.getString(3) + "#"
              + rs.getInt(4));
        }
      }
      Set<String> viaMeta = new TreeSet<>();
      try (ResultSet rs = c.getMetaData().getColumns(null, null, "%", "%")) {
        while (rs.next()) {
          viaMeta.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + "."
              + rs.getString("COLUMN_NAME") + "#" + rs.getInt("ORDINAL_POSITION"));
        }
      }
      assertEquals(viaMeta, viaSql);
      assertTrue(viaSql.contains("PUBLIC.TRIPS.FARE#6"), viaSql.toString());
      // RIDER_ID is the privacy unit, TRIP_ID is undeclared: neither may be named anywhere
      assertFalse(viaSql.stream().anyMatch(s -> s.startsWith("PUBLIC.TRIPS.RIDER_ID")), viaSql.toString());
      assertFalse(viaSql.stream().anyMatch(s -> s.startsWith("PUBLIC.TRIPS.TRIP_ID")), viaSql.toString());
      assertTrue(viaSql.stream().anyMatch(s -> s.startsWith("PUBLIC.COUNTIES.")), "public table");
      assertTrue(viaSql.stream().anyMatch(s -> s.startsWith("DPSQL.BUDGET.")), "system table");
    }
  }

  @Test
  void tablesSchemataAndEmptyViewsAndKeysAreFree() throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      double before = remaining(st);
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM "
          + "INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA' "
          + "ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
        while (rs.next()) {
          tables.add(rs.getString(1) + "." + rs.getString(2));
        }
      }
      List<String> expected = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
        while (rs.next()) {
          expected.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
        }
      }
      expected.sort(null);
      assertEquals(expected, tables);
      assertTrue(tables.containsAll(List.of("PUBLIC.TRIPS", "PUBLIC.RIDERS", "PUBLIC.COUNTIES",
          "DPSQL.BUDGET")), tables.toString());
      assertEquals(0, count(st, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.VIEWS "
          + "WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA'"));
      assertEquals(0, count(st, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS "
          + "WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA'"));
      assertEquals(0, count(st, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE "
          + "WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA'"));
      assertTrue(count(st, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SCHEMATA "
          + "WHERE SCHEMA_NAME IN ('PUBLIC', 'DPSQL', 'INFORMATION_SCHEMA')") == 3);
      assertEquals(0, count(st, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES "
          + "WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_TYPE <> 'BASE TABLE'"));
      assertEquals(0, count(st, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.COLUMNS "
          + "WHERE COLUMN_NAME IN ('RIDER_ID', 'TRIP_ID')"), "undeclared columns are not named");
      assertEquals(before, remaining(st), 0.0, "catalog queries are free");
    }
  }

  @Test
  void catalogQueriesDoNotReadBackendTables() throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT t.TABLE_NAME FROM INFORMATION_SCHEMA.TABLES t "
              + "JOIN TRIPS ON 1 = 1"));
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
    }
  }

  @Test
  void jooqMetaListsTheExposedTablesAndColumns() throws SQLException {
    try (Connection c = connect()) {
      Meta meta = DSL.using(c, SQLDialect.H2).meta();
      Table<?> trips = meta.getTables("TRIPS").stream()
          .filter(t -> t.getSchema() != null && t.getSchema().getName().equals("PUBLIC"))
          .findFirst().orElseThrow();
      List<String> columns = new ArrayList<>();
      for (Field<?> f : trips.fields()) {
        columns.add(f.getName());
      }
      assertEquals(List.of("STATE", "COUNTY", "PAYMENT", "HOUR", "AGE", "FARE", "DISTANCE_KM",
          "PICKUP_AT", "PICKUP_ZONE"), columns);
      Set<String> names = new TreeSet<>();
      for (Table<?> t : meta.getTables()) {
        names.add(t.getSchema().getName() + "." + t.getName());
      }
      assertTrue(names.containsAll(Set.of("PUBLIC.TRIPS", "PUBLIC.RIDERS", "PUBLIC.COUNTIES",
          "DPSQL.BUDGET")), names.toString());
      assertTrue(meta.getPrimaryKeys().isEmpty(), "no keys are declared");
      assertTrue(trips.getKeys().isEmpty());
      // the same through the metadata of the driver itself
      DatabaseMetaData md = c.getMetaData();
      try (ResultSet rs = md.getColumns(null, "PUBLIC", "TRIPS", "RIDER_ID")) {
        assertFalse(rs.next(), "the privacy unit is not listed");
      }
    }
  }

  private static long count(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static double remaining(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT REMAINING FROM DPSQL.BUDGET")) {
      rs.next();
      return rs.getDouble(1);
    }
  }
}
