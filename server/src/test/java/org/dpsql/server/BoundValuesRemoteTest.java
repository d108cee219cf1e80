package org.dpsql.server;

import static org.dpsql.server.TestServers.connect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bound parameters through the server's thin driver: a statement of the relational path (a daily
 * series with two TIMESTAMP parameters and HAVING ?) prepared remotely reports its parameters'
 * types, is answered with its values bound at execute, and a value off the time bins is refused
 * with XDP03 naming the parameter.
 */
class BoundValuesRemoteTest {
  @TempDir Path dir;

  @Test
  void aCompositeStatementWithBoundValuesOverTheWire() throws Exception {
    String backend = TestServers.demoBackend("bound-remote", 2000);
    Path users = TestServers.users(dir, "ann 1");
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null));
        Connection ann = connect(server, "ann");
        PreparedStatement ps = ann.prepareStatement("SELECT CAST(PICKUP_AT AS DATE) AS DAY, "
            + "COUNT(*) AS N FROM TRIPS WHERE PICKUP_AT >= ? AND PICKUP_AT < ? "
            + "GROUP BY CAST(PICKUP_AT AS DATE) HAVING COUNT(*) > ? ORDER BY DAY")) {
      ParameterMetaData md = ps.getParameterMetaData();
      assertEquals(3, md.getParameterCount());
      assertEquals(Types.TIMESTAMP, md.getParameterType(1));
      ps.setTimestamp(1, Timestamp.valueOf("2025-03-01 00:00:00"));
      ps.setTimestamp(2, Timestamp.valueOf("2025-03-08 00:00:00"));
      ps.setInt(3, -1_000_000);
      int days = 0;
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          days++;
          assertTrue(rs.getDate(1).toLocalDate().getMonthValue() == 3);
        }
      }
      assertEquals(7, days);
      ps.setTimestamp(1, Timestamp.valueOf("2025-03-01 10:30:00"));
      SQLException e = assertThrows(SQLException.class, ps::executeQuery);
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("parameter 1"), e.getMessage());
    }
  }
}
