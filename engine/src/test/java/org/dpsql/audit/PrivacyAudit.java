package org.dpsql.audit;

import java.sql.SQLException;

/**
 * The end-to-end audit of one {@link AuditCase}: builds D and D', and for the honest engine and
 * for the broken variant (the same statement through {@link FaultyBackendDriver}) draws {@code
 * selection} runs per database to choose an output event, then {@code estimation} fresh runs per
 * database to bound the privacy loss of that event ({@link PrivacyLossBound}) at confidence
 * {@code 1 - alpha}. Every run is a fresh connection through {@code DriverManager}; seeds are
 * fixed, distinct for every variant, database and phase, so an audit is reproducible.
 */
final class PrivacyAudit {
  /** Seeds of different (variant, database, phase) blocks never overlap. */
  private static final long SEED_BLOCK = 1_000_000_000L;

  private PrivacyAudit() {}

  /**
   * Audits {@code c} with {@code selection} and {@code estimation} runs per database and variant,
   * at confidence {@code 1 - alpha}, sampling with {@code threads} concurrent connections.
   */
  static AuditResult run(AuditCase c, int selection, int estimation, double alpha, int threads)
      throws Exception {
    long start = System.nanoTime();
    try (NeighbouringDatabases dbs = NeighbouringDatabases.create(c.schemaAndBackground(),
        c.unitRows(), c.policyYaml())) {
      ReleaseSampler claimProbe = sampler(dbs, c, NeighbouringDatabases.Side.WITH, null);
      ClaimedCost claimed = claimProbe.claimed(9 * SEED_BLOCK);
      PrivacyLossBound.Estimate honest = audit(dbs, c, null, 0, selection, estimation,
          claimed.delta(), alpha, threads);
      long before = FaultyBackendDriver.rewrites(c.fault());
      PrivacyLossBound.Estimate broken = audit(dbs, c, c.fault(), 1, selection, estimation,
          claimed.delta(), alpha, threads);
      long fired = FaultyBackendDriver.rewrites(c.fault()) - before;
      if (fired < 2L * (selection + estimation)) {
        throw new IllegalStateException("fault " + c.fault() + " changed only " + fired
            + " statements in " + 2 * (selection + estimation) + " broken runs of " + c.name()
            + ": the backend SQL no longer has the shape the fault rewrites");
      }
      return new AuditResult(c, claimed, honest, broken, selection, estimation, 1 - alpha,
          (System.nanoTime() - start) / 1e9);
    }
  }

  private static PrivacyLossBound.Estimate audit(NeighbouringDatabases dbs, AuditCase c,
      BackendFault fault, int variant, int selection, int estimation, double delta, double alpha,
      int threads) throws SQLException {
    ReleaseSampler without = sampler(dbs, c, NeighbouringDatabases.Side.WITHOUT, fault);
    ReleaseSampler with = sampler(dbs, c, NeighbouringDatabases.Side.WITH, fault);
    long base = variant * 4 * SEED_BLOCK;
    PrivacyLossBound.Choice choice = PrivacyLossBound.chooseEvent(
        without.sample(base + 1, selection, threads),
        with.sample(base + SEED_BLOCK + 1, selection, threads),
        delta, alpha);
    return PrivacyLossBound.evaluate(choice,
        without.sample(base + 2 * SEED_BLOCK + 1, estimation, threads),
        with.sample(base + 3 * SEED_BLOCK + 1, estimation, threads), delta, alpha);
  }

  private static ReleaseSampler sampler(NeighbouringDatabases dbs, AuditCase c,
      NeighbouringDatabases.Side side, BackendFault fault) {
    return new ReleaseSampler(dbs.dpsqlUrl(side, fault, c.fault().asTrino()), dbs.policy(),
        c.before(), c.sql(), c.value(), c.parameters(), c.clock());
  }
}
