package org.dpsql.driver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/**
 * Runs in a separate JVM whose class path is the shaded driver jar and this class only: proves that
 * the jar alone opens a dpsql connection on an embedded H2 database, answers a private query and
 * serves the DPSQL system tables. Uses java.sql only.
 */
public final class ShadedJarProbe {
  private ShadedJarProbe() {}

  public static void main(String[] args) throws Exception {
    String db = "h2:mem:probe;DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection("jdbc:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE PEOPLE (ID INT, CITY VARCHAR(10), AGE INT)");
      st.execute("INSERT INTO PEOPLE SELECT X, CASE MOD(X, 3) WHEN 0 THEN 'A' WHEN 1 THEN 'B' ELSE 'C' END, "
          + "MOD(X, 80) FROM SYSTEM_RANGE(1, 1000)");
    }
    Path policy = Files.createTempFile("probe", ".yaml");
    Files.writeString(policy, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1}\n  default_query: {rho: 0.1}\n"
        + "tables:\n  PEOPLE:\n    privacy_unit: ID\n    max_rows_per_unit: 1\n"
        + "    columns:\n      CITY: {values: [A, B, C]}\n      AGE: {min: 0, max: 79, bin: 20}\n");
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + db, p); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT CITY, COUNT(*) AS N FROM PEOPLE GROUP BY CITY")) {
        while (rs.next()) {
          System.out.println("row " + rs.getString(1) + " " + rs.getLong(2));
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT SPENT FROM DPSQL.BUDGET")) {
        rs.next();
        System.out.println("spent " + rs.getBigDecimal(1).stripTrailingZeros().toPlainString());
      }
      try {
        st.executeQuery("SELECT * FROM PEOPLE");
      } catch (java.sql.SQLException e) {
        System.out.println("refused " + e.getSQLState());
      }
      System.out.println("driver " + DriverManager.getDriver("jdbc:dpsql:" + db).getClass().getName());
    }
    Files.delete(policy);
  }
}
