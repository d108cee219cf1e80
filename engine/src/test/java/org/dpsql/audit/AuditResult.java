package org.dpsql.audit;

/**
 * The outcome of auditing one path: the charge, the bound for the honest engine and for the
 * broken variant (same harness, same sample sizes), and the work done.
 *
 * @param selection runs per database and variant used to choose the event
 * @param estimation runs per database and variant used for the bound
 * @param seconds wall time of the whole audit of this path
 */
record AuditResult(AuditCase audited, ClaimedCost claimed, PrivacyLossBound.Estimate honest,
    PrivacyLossBound.Estimate broken, int selection, int estimation, double confidence,
    double seconds) {

  /** Whether the honest engine passes: its ε_low does not exceed the charged ε. */
  boolean honestPasses() {
    return honest.epsilonLow() <= claimed.epsilon();
  }

  /** Whether the audit flags the broken variant: its ε_low exceeds the charged ε. */
  boolean brokenFlagged() {
    return broken.epsilonLow() > claimed.epsilon();
  }

  /** ε_low / ε charged of the honest engine. */
  double tightness() {
    return honest.epsilonLow() / claimed.epsilon();
  }

  /** One line for logs. */
  String summary() {
    return String.format("%-22s %s | eps_low honest %.3f (%.2f of claimed) via %s [%d/%d vs %d/%d]"
            + " | broken (%s) %.3f via %s [%d/%d vs %d/%d] | %d+%d runs per side | %.1f s",
        audited.name(), claimed, honest.epsilonLow(), tightness(), honest.choice(),
        honest.hitsWithout(), honest.nWithout(), honest.hitsWith(), honest.nWith(),
        audited.fault().name(), broken.epsilonLow(), broken.choice(), broken.hitsWithout(),
        broken.nWithout(), broken.hitsWith(), broken.nWith(), selection, estimation, seconds);
  }
}
