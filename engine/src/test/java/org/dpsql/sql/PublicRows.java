package org.dpsql.sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Tests' reader of public rows for a {@link FrontEnd}: every row of a statement on a backend. */
public final class PublicRows {
  private PublicRows() {}

  /** Reads with statements on {@code backend}, each row as an array of its objects. */
  public static FrontEnd.PublicRowReader over(Connection backend) {
    return sql -> {
      List<Object[]> rows = new ArrayList<>();
      try (Statement st = backend.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          Object[] row = new Object[rs.getMetaData().getColumnCount()];
          for (int i = 0; i < row.length; i++) {
            row[i] = rs.getObject(i + 1);
          }
          rows.add(row);
        }
      }
      return rows;
    };
  }
}
