package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a BI tool sees: result metadata with names and SQL types, and the catalog the policy exposes. */
class JdbcMetadataTest {
  static TestDatabase db;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(500, TestDatabase.ZCDP, null);
  }

  @AfterAll
  static void tearDown() throws Exception {
    db.close();
  }

  @Test
  void resultSetMetaDataNamesAndTypes() throws SQLException {
    try (Connection c = db.connect(1L); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT REGION, AGE, COUNT(*), COUNT(FARE) AS NF, SUM(FARE), "
            + "AVG(FARE) AS AVG_FARE FROM TRIPS GROUP BY REGION, AGE")) {
      ResultSetMetaData md = rs.getMetaData();
      assertEquals(6, md.getColumnCount());
      assertEquals(List.of("REGION", "AGE", "COUNT", "NF", "SUM_FARE", "AVG_FARE"), labels(md));
      assertEquals(List.of(Types.VARCHAR, Types.BIGINT, Types.BIGINT, Types.BIGINT, Types.DECIMAL,
          Types.DOUBLE), types(md));
      assertEquals(String.class.getName(), md.getColumnClassName(1));
      assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(3));
      assertEquals(ResultSetMetaData.columnNullable, md.isNullable(6));
      assertTrue(rs.next());
      assertEquals("N", rs.getString("REGION"));
      assertEquals(18L, rs.getLong("AGE"));
      rs.getBigDecimal("SUM_FARE");
      rs.getDouble("AVG_FARE");
      int rows = 1;
      while (rs.next()) {
        rows++;
      }
      assertEquals(4 * 6, rows);
    }
  }

  @Test
  void databaseMetaDataListsWhatThePolicyExposes() throws SQLException {
    try (Connection c = db.connect()) {
      DatabaseMetaData md = c.getMetaData();
      assertEquals("dpsql", md.getDatabaseProductName());
      assertTrue(md.isReadOnly());
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, null, "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + ":"
              + rs.getString("TABLE_TYPE"));
        }
      }
      assertTrue(tables.contains("PUBLIC.TRIPS:TABLE"), tables.toString());
      assertTrue(tables.contains("PUBLIC.ZONES:TABLE"), tables.toString());
      assertFalse(tables.stream().anyMatch(t -> t.contains("SECRET")), "tables outside the policy are hidden");

      List<String> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "PUBLIC", "TRIPS", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("DATA_TYPE"));
        }
      }
      assertEquals(List.of("REGION:" + Types.VARCHAR, "PAYMENT:" + Types.VARCHAR,
          "AGE:" + Types.INTEGER, "FARE:" + Types.DECIMAL), columns,
          "private tables show their policy columns only (no unit, no raw ids)");
      try (ResultSet rs = md.getColumns(null, null, "ZONES", null)) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertEquals(2, n, "public tables show all their columns");
      }
      List<String> schemas = new ArrayList<>();
      try (ResultSet rs = md.getSchemas()) {
        while (rs.next()) {
          schemas.add(rs.getString("TABLE_SCHEM"));
        }
      }
      assertTrue(schemas.contains("PUBLIC") && schemas.contains("DPSQL"), schemas.toString());
      try (ResultSet rs = md.getTableTypes()) {
        assertTrue(rs.next());
      }
    }
  }

  private static List<String> labels(ResultSetMetaData md) throws SQLException {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      out.add(md.getColumnLabel(i));
    }
    return out;
  }

  private static List<Integer> types(ResultSetMetaData md) throws SQLException {
    List<Integer> out = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      out.add(md.getColumnType(i));
    }
    return out;
  }
}
