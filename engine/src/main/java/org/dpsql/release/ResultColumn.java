package org.dpsql.release;

import java.sql.Types;

/** A column of a released result: its label and JDBC type, and the Java class of its values. */
public record ResultColumn(String label, int jdbcType, String typeName, Class<?> javaClass,
    int precision, int scale, boolean nullable) {

  public static ResultColumn bigint(String label, boolean nullable) {
    return new ResultColumn(label, Types.BIGINT, "BIGINT", Long.class, 19, 0, nullable);
  }

  public static ResultColumn decimal(String label, int scale, boolean nullable) {
    return new ResultColumn(label, Types.DECIMAL, "DECIMAL", java.math.BigDecimal.class, 38, scale,
        nullable);
  }

  public static ResultColumn doubles(String label, boolean nullable) {
    return new ResultColumn(label, Types.DOUBLE, "DOUBLE", Double.class, 17, 0, nullable);
  }

  public static ResultColumn varchar(String label, boolean nullable) {
    return new ResultColumn(label, Types.VARCHAR, "VARCHAR", String.class, 65536, 0, nullable);
  }

  public static ResultColumn timestamp(String label, boolean nullable) {
    return new ResultColumn(label, Types.TIMESTAMP, "TIMESTAMP", java.sql.Timestamp.class, 26, 6,
        nullable);
  }

  public static ResultColumn date(String label, boolean nullable) {
    return new ResultColumn(label, Types.DATE, "DATE", java.sql.Date.class, 10, 0, nullable);
  }

  public static ResultColumn bool(String label, boolean nullable) {
    return new ResultColumn(label, Types.BOOLEAN, "BOOLEAN", Boolean.class, 1, 0, nullable);
  }

  public ResultColumn withLabel(String newLabel) {
    return new ResultColumn(newLabel, jdbcType, typeName, javaClass, precision, scale, nullable);
  }
}
