package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Policy-derived SQL quotes identifiers and escapes values: a reserved-word column, a
 * mixed-case quoted table and a categorical value with a quote work and cannot inject SQL.
 */
class QuotingTest {
  @Test
  void reservedWordsMixedCaseAndQuotesInValues() throws Exception {
    String db = "h2:mem:q" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection("jdbc:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE \"Visits\" (\"id\" INT, \"HOUR\" INT, \"Place\" VARCHAR(40))");
      st.execute("INSERT INTO \"Visits\" VALUES (1, 7, 'O''Hare'), (2, 7, 'O''Hare'), (3, 8, 'Midway'), "
          + "(4, 9, 'x''); DROP TABLE \"Visits\"; --')");
    }
    Path policy = Files.createTempFile("quoting", ".yaml");
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n  per_connection: {rho: 1000}\n"
        + "  default_query: {rho: 500}\ntables:\n  Visits:\n    privacy_unit: ROW\n    columns:\n"
        + "      HOUR: {min: 0, max: 23}\n"
        + "      Place: {values: [\"O'Hare\", Midway, \"x'); DROP TABLE \\\"Visits\\\"; --\"]}\n");
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", "3");
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + db, p); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT \"Place\", COUNT(*) FROM \"Visits\" WHERE \"HOUR\" >= 7 GROUP BY \"Place\"")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        // rho = 500: sigma^2 = 1 / 1000, the noise is almost surely 0
        rows.add(rs.getString(1) + "=" + rs.getLong(2));
      }
      assertEquals(List.of("O'Hare=2", "Midway=1", "x'); DROP TABLE \"Visits\"; --=1"), rows);
    }
    try (Connection c = DriverManager.getConnection("jdbc:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM \"Visits\"")) {
      assertTrue(rs.next());
      assertEquals(4, rs.getLong(1), "the table is still there");
    }
    Files.delete(policy);
  }
}
