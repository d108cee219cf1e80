package org.dpsql.ledger;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * {@link LedgerReaderTest}'s checks on a PostgreSQL ledger (its SQL, and that a REPEATABLE READ
 * reader does not hold up a charge there either), each in a schema of its own that is dropped
 * afterwards. Runs when DPSQL_TEST_PG_URL (plus DPSQL_TEST_PG_USER, DPSQL_TEST_PG_PASSWORD) names
 * a server, as {@code .ci/run} sets up.
 */
@EnabledIfEnvironmentVariable(named = "DPSQL_TEST_PG_URL", matches = "jdbc:postgresql:.+")
class LedgerReaderPostgresTest {
  private interface Check {
    void run(LedgerStore store) throws Exception;
  }

  private static void inFreshSchema(Check check) throws Exception {
    String url = System.getenv("DPSQL_TEST_PG_URL");
    Properties login = new Properties();
    login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_PG_USER", "postgres"));
    login.setProperty("password", System.getenv().getOrDefault("DPSQL_TEST_PG_PASSWORD", ""));
    String schema = "dpsql_reader_" + Long.toHexString(System.nanoTime());
    try (Connection admin = DriverManager.getConnection(url, login);
        Statement s = admin.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      try (LedgerStore store = LedgerStore.open(
          url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, login)) {
        check.run(store);
      } finally {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  @Test
  void summariesAndHistoriesAgreeWithTheAccounts() throws Exception {
    inFreshSchema(LedgerReaderTest::summariesAndHistoriesAgree);
  }

  @Test
  void aChargeCompletesWhileTheReadersSnapshotIsOpen() throws Exception {
    inFreshSchema(LedgerReaderTest::chargeCompletesDuringASnapshot);
  }
}
