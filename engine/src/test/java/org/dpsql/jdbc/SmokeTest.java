package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void countByRegion() throws Exception {
    try (TestDatabase db = TestDatabase.create(2000, TestDatabase.ZCDP, null);
        Connection c = db.connect(1L);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT REGION, COUNT(*) AS N, SUM(FARE), AVG(FARE) FROM TRIPS GROUP BY REGION")) {
      int rows = 0;
      while (rs.next()) {
        rows++;
        System.out.println(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getBigDecimal(3) + " " + rs.getDouble(4));
      }
      assertEquals(4, rows);
    }
  }
}
