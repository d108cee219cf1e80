package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 on the demo database and its bundled policy, as a new user tries it: the four
 * statements of the issue return 1, 2, 3 and 9 rows (not 4, 4, 24 and 72), a roll-up over the GEO
 * hierarchy returns the tree's 20 nodes (not 65), and a filter on STATE grouped by COUNTY returns
 * the counties of that state.
 */
class FilteredGroupsDemoTest {
  private static Connection h2;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    h2 = DriverManager.getConnection("jdbc:h2:mem:filtered-groups-demo;DB_CLOSE_DELAY=-1");
    DemoData.generate(h2, DemoData.Config.ofTrips(5_000));
    policy = Files.createTempFile("demo-policy", ".yaml");
    try (InputStream in = FilteredGroupsDemoTest.class.getClassLoader()
        .getResourceAsStream(DemoRunner.POLICY_RESOURCE)) {
      Files.write(policy, in.readAllBytes());
    }
  }

  @AfterAll
  static void tearDown() throws Exception {
    try (Statement st = h2.createStatement()) {
      st.execute("DROP ALL OBJECTS");
    }
    h2.close();
    Files.deleteIfExists(policy);
  }

  private static List<String> firstColumn(Connection c, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void theIssuesStatementsOnTheDemo() throws Exception {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", "32");
    try (Connection c = DriverManager.getConnection(
        "jdbc:dpsql:h2:mem:filtered-groups-demo;DB_CLOSE_DELAY=-1", p)) {
      assertEquals(List.of("NY"), firstColumn(c, "SELECT STATE, COUNT(*) AS N FROM TRIPS "
          + "WHERE STATE = 'NY' GROUP BY STATE"));
      assertEquals(List.of("NY", "CA"), firstColumn(c, "SELECT STATE, COUNT(*) AS N FROM TRIPS "
          + "WHERE STATE IN ('NY','CA') GROUP BY STATE"));
      assertEquals(List.of("7", "8", "9"), firstColumn(c, "SELECT HOUR, COUNT(*) AS N FROM TRIPS "
          + "WHERE HOUR BETWEEN 7 AND 9 GROUP BY HOUR"));
      assertEquals(9, firstColumn(c, "SELECT HOUR, PAYMENT, COUNT(*) FROM TRIPS WHERE HOUR "
          + "BETWEEN 7 AND 9 GROUP BY HOUR, PAYMENT").size());
      List<String> rollup = firstColumn(c, "SELECT STATE, COUNTY, COUNT(*) AS N FROM TRIPS "
          + "GROUP BY ROLLUP(STATE, COUNTY)");
      assertEquals(20, rollup.size(), rollup.toString());
      // InfTDA releases the roll-up's counts as integers: BIGINT, whole and non-negative, the
      // same type at prepare and after execute
      try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT STATE, COUNTY, COUNT(*) "
          + "AS N FROM TRIPS GROUP BY ROLLUP(STATE, COUNTY)")) {
        assertEquals(java.sql.Types.BIGINT, ps.getMetaData().getColumnType(3));
        try (ResultSet rs = ps.executeQuery()) {
          assertEquals(java.sql.Types.BIGINT, rs.getMetaData().getColumnType(3));
          int rows = 0;
          while (rs.next()) {
            rows++;
            assertTrue(rs.getObject(3) instanceof Long n && n >= 0, "" + rs.getObject(3));
          }
          assertEquals(20, rows);
        }
      }
      // a roll-up outside a hierarchy is answered by the matrix mechanism: least-squares
      // estimates, DOUBLE
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT STATE, "
          + "PAYMENT, COUNT(*) AS N FROM TRIPS GROUP BY ROLLUP(STATE, PAYMENT)")) {
        assertEquals(java.sql.Types.DOUBLE, rs.getMetaData().getColumnType(3));
        assertTrue(rs.next());
        assertTrue(rs.getObject(3) instanceof Double);
      }
      List<String> texas = new ArrayList<>();
      DemoData.countiesOf("TX").forEach(county -> texas.add(county.name()));
      assertEquals(texas, firstColumn(c, "SELECT COUNTY, COUNT(*) AS TRIP_COUNT FROM TRIPS "
          + "WHERE STATE = 'TX' GROUP BY COUNTY"));
      assertTrue(texas.size() == 3);
    }
  }
}
