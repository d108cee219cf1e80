package org.dpsql.policy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** A private in-memory H2 database with the tables the policy tests refer to. */
final class H2Backend implements AutoCloseable {
  final Connection connection;

  H2Backend() throws SQLException {
    connection = DriverManager.getConnection(
        "jdbc:h2:mem:policy_" + UUID.randomUUID().toString().replace('-', '_'));
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE TRIPS (ID INT PRIMARY KEY, RIDER_ID INT NOT NULL, ORIGIN VARCHAR(2),"
          + " AGE INT, FARE DECIMAL(10, 2), STATE VARCHAR(2), COUNTY VARCHAR(20), TRACT INT,"
          + " TRIP_DAY DATE, PAID BOOLEAN, NOTE VARCHAR(100))");
      s.execute("CREATE TABLE ZONES (ZONE_ID INT, NAME VARCHAR(50))");
      s.execute("CREATE TABLE \"MixedCase\" (\"Id\" INT, \"Score\" DOUBLE)");
      s.execute("CREATE SCHEMA OTHER");
      s.execute("CREATE TABLE OTHER.TRIPS (X INT)");
      s.execute("CREATE TABLE OTHER.EVENTS (EVENT_ID INT, KIND VARCHAR(10), SIZE_ BIGINT)");
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
