package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.ledger.LedgerStore;
import org.dpsql.session.AccountantSource;
import org.dpsql.session.ReleaseSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An analyst's releases kept in the ledger database ({@link ReleaseSource#shared}, as the server
 * uses them): every kind of release — a plain answer, a SUM answer, a TopDown tree, a matrix
 * mechanism estimate — is shared by the analyst's connections and, after the store is closed and
 * opened again (a restart), answers the same and the covered statements with the same values at no
 * cost; another analyst, a changed policy and a corrupt row do not get them.
 */
class DurableReleasesTest {
  private static final String BUDGET = "budget:\n  accounting: zcdp\n"
      + "  per_connection: {rho: 5, delta: 1e-9}\n  default_query: {rho: 0.1}\n";

  /** Statements that release something, then statements answered from those releases. */
  private static final List<String> RELEASING = List.of(
      "SELECT REGION, COUNT(*) AS N FROM TRIPS GROUP BY REGION ORDER BY REGION",
      "SELECT PAYMENT, SUM(FARE) AS S, AVG(FARE) AS A FROM TRIPS GROUP BY PAYMENT ORDER BY PAYMENT",
      "SELECT REGION, PAYMENT, COUNT(*) AS N FROM TRIPS GROUP BY ROLLUP(REGION, PAYMENT)",
      "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'rho=0.2'))");
  private static final List<String> COVERED = List.of(
      "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY ROLLUP(REGION)",
      "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN 28 AND 47",
      "SELECT AGE, COUNT(*) FROM TRIPS WHERE AGE < 48 GROUP BY AGE");
  /** Covered statements first asked after the restart: answered from the restored synopses. */
  private static final List<String> COVERED_LATER = List.of(
      "SELECT PAYMENT, COUNT(*) FROM TRIPS WHERE REGION = 'N' GROUP BY PAYMENT",
      "SELECT COUNT(*) FROM TRIPS WHERE AGE >= 58",
      "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN 18 AND 27 OR AGE >= 68");

  private static TestDatabase db;
  private static Path policy;

  @TempDir static Path dir;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(3000, BUDGET, null);
    policy = dir.resolve("policy.yaml");
    Files.writeString(policy, policyYaml(77));
  }

  @AfterAll
  static void tearDown() throws Exception {
    db.close();
  }

  private static String policyYaml(int maxAge) {
    return TestDatabase.policyYaml(BUDGET, null)
        .replace("AGE: {min: 18, max: 77, bin: 10}", "AGE: {min: 18, max: " + maxAge + ", bin: 10}")
        .replace("      FARE: {clamp: [0, 100]}\n",
            "      FARE: {clamp: [0, 100]}\n    hierarchies:\n      RP: [REGION, PAYMENT]\n");
  }

  private static Connection connect(ReleaseSource releases, Path policyFile) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policyFile.toString());
    return new DpsqlDriver(AccountantSource.PER_CONNECTION, releases).connect(db.dpsqlUrl(), p);
  }

  private static List<List<Object[]>> run(Connection c, List<String> statements)
      throws SQLException {
    List<List<Object[]>> out = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      for (String sql : statements) {
        try (ResultSet rs = st.executeQuery(sql)) {
          out.add(TestDatabase.rows(rs));
        }
      }
    }
    return out;
  }

  private static long storedRows(String ledgerUrl) throws SQLException {
    try (Connection l = java.sql.DriverManager.getConnection(ledgerUrl);
        Statement st = l.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM DPSQL_RELEASE")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static PrivacyCost spent(Connection c) {
    return TestDatabase.session(c).accountant().spent();
  }

  private static void assertSameRows(List<List<Object[]>> expected, List<List<Object[]>> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).size(), actual.get(i).size(), "statement " + i);
      for (int r = 0; r < expected.get(i).size(); r++) {
        assertArrayEquals(expected.get(i).get(r), actual.get(i).get(r), "statement " + i);
      }
    }
  }

  @Test
  void releasesAreSharedByConnectionsAndSurviveARestart() throws Exception {
    String ledgerUrl = LedgerStore.h2File(dir.resolve("ledger-restart"));
    List<List<Object[]>> released;
    List<List<Object[]>> covered;
    try (LedgerStore store = LedgerStore.open(ledgerUrl, null)) {
      ReleaseSource ann = ReleaseSource.shared(store.releases("ann"));
      try (Connection c = connect(ann, policy)) {
        released = run(c, RELEASING);
        PrivacyCost paid = spent(c);
        assertTrue(paid.rho().signum() > 0);
        long stored = storedRows(ledgerUrl);
        covered = run(c, COVERED);
        assertEquals(paid, spent(c), "covered statements are free");
        assertEquals(stored, storedRows(ledgerUrl), "free answers are recomputed, not stored");
      }
      // another connection of the same analyst: nothing to pay, the same values
      try (Connection c = connect(ann, policy)) {
        assertSameRows(released, run(c, RELEASING));
        assertSameRows(covered, run(c, COVERED));
        assertEquals(PrivacyCost.ZERO, spent(c));
      }
      // another analyst pays for their own
      try (Connection c = connect(ReleaseSource.shared(store.releases("bob")), policy)) {
        run(c, RELEASING.subList(0, 1));
        assertTrue(spent(c).rho().signum() > 0);
      }
    }
    // a restart: the store is opened again and the releases are read from it
    try (LedgerStore store = LedgerStore.open(ledgerUrl, null);
        Connection c = connect(ReleaseSource.shared(store.releases("ann")), policy)) {
      assertSameRows(released, run(c, RELEASING));
      assertSameRows(covered, run(c, COVERED));
      run(c, COVERED_LATER);
      assertEquals(PrivacyCost.ZERO, spent(c), "nothing is charged again after a restart");
      List<org.dpsql.accounting.LedgerEntry> ledger = TestDatabase.session(c).accountant()
          .ledger();
      assertEquals(COVERED.size() + COVERED_LATER.size(), ledger.size(), "covered statements "
          + "are answered free from the restored synopses (and recorded so); repeats of paid "
          + "statements need no ledger entry");
      for (org.dpsql.accounting.LedgerEntry e : ledger) {
        assertTrue(e.mechanism().startsWith("synopsis:"), e.mechanism());
      }
    }
  }

  @Test
  void aChangedPolicyOrACorruptRowIsNotRestored() throws Exception {
    String ledgerUrl = LedgerStore.h2File(dir.resolve("ledger-changes"));
    try (LedgerStore store = LedgerStore.open(ledgerUrl, null);
        Connection c = connect(ReleaseSource.shared(store.releases("ann")), policy)) {
      run(c, RELEASING);
    }
    // the owner widens a domain: the old releases do not have the new shape, so none is reused
    Path changed = dir.resolve("changed.yaml");
    Files.writeString(changed, policyYaml(87));
    try (LedgerStore store = LedgerStore.open(ledgerUrl, null);
        Connection c = connect(ReleaseSource.shared(store.releases("ann")), changed)) {
      run(c, RELEASING.subList(0, 1));
      assertTrue(spent(c).rho().signum() > 0, "released under another policy: paid again");
    }
    // a flipped byte in the stored SUM answer (which no synopsis covers): that one is measured
    // again, the others are not
    try (Connection l = java.sql.DriverManager.getConnection(ledgerUrl);
        Statement st = l.createStatement()) {
      byte[] payload;
      try (ResultSet rs = st.executeQuery("SELECT PAYLOAD FROM DPSQL_RELEASE WHERE ANALYST = "
          + "'ann' AND RELEASE_NO = 2")) {
        assertTrue(rs.next());
        payload = rs.getBytes(1);
      }
      payload[payload.length / 2] ^= 0x10;
      try (java.sql.PreparedStatement ps = l.prepareStatement("UPDATE DPSQL_RELEASE SET PAYLOAD "
          + "= ? WHERE ANALYST = 'ann' AND RELEASE_NO = 2")) {
        ps.setBytes(1, payload);
        assertEquals(1, ps.executeUpdate());
      }
    }
    try (LedgerStore store = LedgerStore.open(ledgerUrl, null);
        Connection c = connect(ReleaseSource.shared(store.releases("ann")), policy)) {
      run(c, RELEASING.subList(0, 1));
      run(c, RELEASING.subList(2, RELEASING.size()));
      run(c, COVERED);
      assertEquals(PrivacyCost.ZERO, spent(c), "the intact releases are still free");
      run(c, RELEASING.subList(1, 2));
      assertTrue(spent(c).rho().signum() > 0, "the corrupt one is measured and paid again");
    }
  }
}
