package org.dpsql.audit;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The audit of every path as a Markdown table (path, ε claimed, ε_low honest, ratio, broken
 * variant and its ε_low, runs), for {@code org.dpsql.bench.PrivacyAuditBench}: the public entry
 * point of this package for code outside the engine's tests.
 */
public final class AuditTable {
  /** The outcome: the table and whether every path passed and every broken variant was flagged. */
  public record Outcome(String markdown, boolean allPassed, List<String> summaries, int paths) {}

  private AuditTable() {}

  /**
   * Audits every path of {@link AuditCases} with {@code selection} and {@code estimation} runs per
   * database and variant at confidence {@code 1 - alpha}, {@code threads} connections at a time,
   * printing one summary line per path to {@code log} as it finishes.
   */
  public static Outcome run(int selection, int estimation, double alpha, int threads,
      PrintStream log) throws Exception {
    return run(selection, estimation, alpha, threads, log, List.of());
  }

  /** As {@link #run(int, int, double, int, PrintStream)}, for the paths named (all if empty). */
  public static Outcome run(int selection, int estimation, double alpha, int threads,
      PrintStream log, List<String> paths) throws Exception {
    StringBuilder md = new StringBuilder();
    md.append("| path | mechanism, statement | ε claimed (ledger) | δ | ε_low honest | ε_low / ε "
        + "| broken variant | ε_low broken | flagged | runs per side (selection + estimation) "
        + "| wall time |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    boolean ok = true;
    List<String> summaries = new ArrayList<>();
    for (AuditCase c : AuditCases.all()) {
      if (!paths.isEmpty() && !paths.contains(c.name())) {
        continue;
      }
      AuditResult r = PrivacyAudit.run(c, selection, estimation, alpha, threads);
      log.println("[privacy audit] " + r.summary());
      log.flush();
      summaries.add(r.summary());
      ok &= r.honestPasses() && r.brokenFlagged();
      md.append(String.format(Locale.ROOT,
          "| %s | %s | %.4f%s | %s | %.3f | %.2f | %s | %.3f | %s | %d + %d | %.0f s |\n",
          c.name(), c.description(), r.claimed().epsilon(),
          r.claimed().rho() == null ? "" : " (ρ = " + r.claimed().rho().toPlainString() + ")",
          r.claimed().delta() == 0 ? "0" : String.valueOf(r.claimed().delta()),
          r.honest().epsilonLow(), r.tightness(), c.fault().description(),
          r.broken().epsilonLow(), r.brokenFlagged() ? "yes" : "**NO**", selection, estimation,
          r.seconds()));
    }
    return new Outcome(md.toString(), ok, summaries, summaries.size());
  }
}
