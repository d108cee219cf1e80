package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.Test;

/** Password hashes, the users file, the command line. */
class UsersFileTest {
  private static final String HASH = TestServers.hash("s3cret");

  @Test
  void passwordHashesVerifyOnlyTheirPasswordAndRoundTrip() {
    PasswordHash h = PasswordHash.create("s3cret".toCharArray(), 1000, new SecureRandom());
    assertTrue(h.matches("s3cret".toCharArray()));
    assertFalse(h.matches("s3cret ".toCharArray()));
    assertFalse(h.matches("".toCharArray()));
    PasswordHash parsed = PasswordHash.parse(h.encode());
    assertEquals(h, parsed);
    assertTrue(parsed.matches("s3cret".toCharArray()));
    // same password, fresh salt: a different hash
    PasswordHash other = PasswordHash.create("s3cret".toCharArray(), 1000, new SecureRandom());
    assertFalse(other.encode().equals(h.encode()));
    assertFalse(h.toString().contains(h.encode().split("\\$")[3]));
    assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("s3cret"));
    assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("pbkdf2-sha256$10$AAAAAAAAAAA=$AAAAAAAAAAAAAAAAAAAAAA=="));
    assertThrows(IllegalArgumentException.class,
        () -> PasswordHash.create("x".toCharArray(), 999, new SecureRandom()));
    assertThrows(IllegalArgumentException.class,
        () -> PasswordHash.create(new char[0], 1000, new SecureRandom()));
  }

  @Test
  void parsesBudgetsExactlyInThePolicysAccounting() {
    UsersFile f = UsersFile.parse("analysts:\n  alice:\n    password: " + HASH + "\n"
        + "    budget: {epsilon: 3.1, delta: 1e-6}\n    per_connection: {epsilon: 0.7, delta: 1.0e-7}\n"
        + "  bob:\n    password: " + HASH + "\n    budget: {epsilon: 1, delta: 0.000001}\n",
        "users.yaml", Accounting.APPROX);
    Analyst alice = f.analyst("alice").orElseThrow();
    assertEquals(PrivacyCost.approx(new BigDecimal("3.1"), new BigDecimal("0.000001")),
        alice.total());
    assertEquals(PrivacyCost.approx(new BigDecimal("0.7"), new BigDecimal("1e-7")),
        alice.perConnection());
    assertNull(f.analyst("bob").orElseThrow().perConnection());
    assertEquals(java.util.List.of("alice", "bob"), java.util.List.copyOf(f.analysts().keySet()));
  }

  @Test
  void zcdpBudgetsMayCarryADeltaForPartitionSelection() {
    UsersFile f = UsersFile.parse("analysts:\n  alice:\n    password: " + HASH + "\n"
        + "    budget: {rho: 2, delta: 4e-10}\n    per_connection: {rho: 0.5, delta: 1e-10}\n"
        + "  bob:\n    password: " + HASH + "\n    budget: {rho: 1, delta: 3e-10}\n"
        + "    per_connection: {rho: 0.25}\n"
        + "  cy:\n    password: " + HASH + "\n    budget: {rho: 1}\n",
        "users.yaml", Accounting.ZCDP);
    assertEquals(new PrivacyCost(BigDecimal.ZERO, new BigDecimal("4e-10"), new BigDecimal("2")),
        f.analyst("alice").orElseThrow().total());
    assertEquals(new PrivacyCost(BigDecimal.ZERO, new BigDecimal("1e-10"), new BigDecimal("0.5")),
        f.analyst("alice").orElseThrow().perConnection());
    // a cap without δ caps ρ only: its δ is the total's
    assertEquals(new PrivacyCost(BigDecimal.ZERO, new BigDecimal("3e-10"), new BigDecimal("0.25")),
        f.analyst("bob").orElseThrow().perConnection());
    assertEquals(PrivacyCost.zcdp(BigDecimal.ONE), f.analyst("cy").orElseThrow().total());
    // at most half the policy's reporting δ (1e-9 in the demo policy)
    f.checkDeltas(Accounting.ZCDP, new BigDecimal("1e-9"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> f.checkDeltas(Accounting.ZCDP, new BigDecimal("7e-10")));
    assertTrue(e.getMessage().startsWith("analysts.alice.budget.delta"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> f.checkDeltas(Accounting.ZCDP, null));
    assertThrows(IllegalArgumentException.class, () -> UsersFile.parse("analysts:\n  a:\n"
        + "    password: " + HASH + "\n    budget: {rho: 1, delta: 1}\n", "u", Accounting.ZCDP));
  }

  @Test
  void ownersHaveARoleAndNoBudgetUnlessTheFileGivesOne() {
    UsersFile f = UsersFile.parse("analysts:\n  alice:\n    password: " + HASH + "\n"
        + "    budget: {rho: 1}\n  olivia:\n    password: " + HASH + "\n    role: owner\n"
        + "  oscar:\n    password: " + HASH + "\n    role: owner\n    budget: {rho: 0.5}\n",
        "users.yaml", Accounting.ZCDP);
    assertEquals(java.util.List.of("alice", "oscar"), java.util.List.copyOf(f.analysts().keySet()));
    assertEquals(java.util.Set.of("olivia", "oscar"), f.owners());
    assertEquals(java.util.List.of("alice", "olivia", "oscar"),
        java.util.List.copyOf(f.passwords().keySet()));
    assertFalse(f.isOwner("alice"));
    assertTrue(f.isOwner("olivia"));
    assertTrue(f.analyst("olivia").isEmpty(), "an owner has no budget by default");
    // a file with only an owner is valid: the owner can look, nobody can query
    UsersFile only = UsersFile.parse("analysts:\n  olivia:\n    password: " + HASH
        + "\n    role: owner\n", "users.yaml", Accounting.ZCDP);
    assertTrue(only.analysts().isEmpty());
  }

  @Test
  void theDemoUsersFileHasAnOwnerAndTwoAnalysts() throws Exception {
    UsersFile demo = UsersFile.load(Path.of("examples/demo-users.yaml"), Accounting.ZCDP);
    assertEquals(java.util.Set.of("owner"), demo.owners());
    assertEquals(java.util.List.of("alice", "bob"), java.util.List.copyOf(demo.analysts().keySet()));
  }

  @Test
  void refusesMalformedFilesNamingTheKey() {
    String[][] cases = {
        {"analysts: []", "expected a mapping"},
        {"analysts:\n  alice:\n    budget: {rho: 1}\n", "analysts.alice.password"},
        {"analysts:\n  alice:\n    password: plain\n    budget: {rho: 1}\n", "hash-password"},
        {"analysts:\n  alice:\n    password: " + HASH + "\n", "analysts.alice.budget: missing"},
        {"analysts:\n  alice:\n    password: " + HASH + "\n    budget: {epsilon: 1}\n",
            "zcdp accounting"},
        {"analysts:\n  alice:\n    password: " + HASH + "\n    budget: {rho: -1}\n",
            "must be positive"},
        {"analysts:\n  alice:\n    password: " + HASH + "\n    budget: {rho: 1}\n    role: admin\n",
            "analysts.alice.role: 'admin' is not a role"},
        {"analysts:\n  alice:\n    password: " + HASH + "\n    role: analyst\n",
            "analysts.alice.budget: missing"},
        {"analysts:\n  olivia:\n    password: " + HASH + "\n    role: owner\n"
            + "    per_connection: {rho: 1}\n", "an owner without a budget"},
        {"analysts:\n  alice:\n    password: " + HASH + "\n    budget: {rho: 1}\n    admin: yes\n",
            "unknown key 'admin'"},
        {"analysts:\n  'bad name':\n    password: " + HASH + "\n    budget: {rho: 1}\n",
            "analyst name"},
        {"analysts:\n  a:\n    password: " + HASH + "\n    budget: {rho: 1}\n  a:\n    password: "
            + HASH + "\n    budget: {rho: 2}\n", "not valid YAML"},
        {"analysts: {}\n", "no analysts"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> UsersFile.parse(c[0], "users.yaml", Accounting.ZCDP), c[0]);
      assertTrue(e.getMessage().startsWith("users.yaml"), e.getMessage());
      assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
    }
  }

  @Test
  void commandLineHelpAndMistakes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(0, DpsqlServer.run(new String[] {"--help"}, o, e));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--keystore-password"));
    assertEquals(2, DpsqlServer.run(new String[] {"--users", "u.yaml"}, o, e));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--backend and --policy, or --demo"));
    assertEquals(2, DpsqlServer.run(new String[] {"--demo", "--users", "u.yaml", "--port", "x"},
        o, e));
    assertEquals(2, DpsqlServer.run(new String[] {"--bogus"}, o, e));
    ServerOptions parsed = ServerOptions.parse(new String[] {"--backend", "jdbc:h2:mem:x",
        "--policy", "p.yaml", "--users", "u.yaml", "--ledger", "data/ledger", "--port", "9000"});
    assertEquals(9000, parsed.port());
    assertEquals("127.0.0.1", parsed.host());
    assertTrue(parsed.ledgerUrl().startsWith("jdbc:h2:file:")
        && parsed.ledgerUrl().contains(Path.of("data/ledger").toAbsolutePath().toString()));
    assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(new String[] {
        "--demo", "--policy", "p.yaml", "--users", "u.yaml"}));
    assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(new String[] {
        "--demo", "--users", "u.yaml", "--keystore", "k.p12"}));
  }
}
