package org.dpsql.server.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpsql.accounting.Accounting;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.server.PasswordHash;
import org.dpsql.server.UsersFile;
import org.dpsql.session.Releases;
import org.junit.jupiter.api.Test;

/**
 * The policy page on a policy with every section the demo's lacks: pure accounting, limits, an
 * answer range, a ROW unit, a spatial index, an adaptive table and a published synopsis.
 */
class PolicyPageTest {
  static final String POLICY = "allow_seed: false\n"
      + "budget:\n  accounting: pure\n  per_connection: {epsilon: 2}\n"
      + "  default_query: {epsilon: 0.1}\n"
      + "limits: {statement_timeout_s: 30, max_cells: 50000}\n"
      + "synopses:\n  AGES: {table: TRIPS, workload: 'PREFIX(AGE)', budget: {epsilon: 0.5}}\n"
      + "synopsis_store: /tmp/never-used-synopses\n"
      + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    max_rows_per_unit: 5\n"
      + "    answer_range: [0, 500]\n"
      + "    columns:\n      REGION: {values: ['N', 'S', '<b>E</b>', W]}\n"
      + "      AGE: {min: 18, max: 77, bin: 10}\n      FARE: {clamp: [0, 100]}\n"
      + "      LON: {min: 0, max: 99}\n      LAT: {min: 0, max: 49}\n"
      + "    hierarchies:\n      RP: [REGION, AGE]\n"
      + "    spatial:\n      MAP: [LON, LAT]\n"
      + "  EVENTS:\n    privacy_unit: ROW\n    columns:\n      KIND: {values: [A, B]}\n"
      + "adaptive_tables:\n  DHC:\n"
      + "    persons: {table: PERSONS, person: PID, sex: SEX, age: AGE}\n"
      + "    iterations: {table: PERSON_ITERATION, person: PID, iteration: ITERATION}\n"
      + "    mechanism: geometric\n    gamma: 0.1\n    thresholds: [50, 500, 5000]\n"
      + "    sexes: [M, F]\n    ages: {max: 115, bins: census}\n    levels:\n"
      + "      NATION: {iterations: &its [A1, A2, A3], total_only: [A3], budget: {epsilon: 1}, "
      + "stability: 2}\n";

  @Test
  void everySectionIsShownEscapedWithTheFingerprintAndNoHash() throws Exception {
    Policy policy = PolicyLoader.parse(POLICY, "rich.yaml");
    String hash = PasswordHash.create("pw".toCharArray(), 1000, new java.security.SecureRandom())
        .encode();
    UsersFile users = UsersFile.parse("analysts:\n  ann:\n    password: " + hash + "\n"
        + "    budget: {epsilon: 3}\n    per_connection: {epsilon: 1}\n  olivia:\n"
        + "    password: " + hash + "\n    role: owner\n", "users.yaml", Accounting.PURE);
    String page = PolicyPage.render(new CurrentPolicy.Loaded(policy, Releases.fingerprint(policy)),
        "rich.yaml", users);
    assertTrue(page.contains(Releases.fingerprint(policy)));
    assertTrue(page.contains("<td>ann</td><td>analyst</td><td>ε=3</td><td>ε=1</td>"));
    assertTrue(page.contains("<td>olivia</td><td>owner</td><td>no budget</td>"));
    assertTrue(page.contains("statement_timeout_s</th><td>30</td>"));
    assertTrue(page.contains("max_cells</th><td>50000</td>"));
    assertTrue(page.contains("[0, 500]"), "answer range");
    assertTrue(page.contains("ROW (each row)"));
    assertTrue(page.contains("Spatial indexes: MAP = (LON, LAT)"));
    assertTrue(page.contains("Hierarchies: RP = REGION → AGE"));
    assertTrue(page.contains("[18, 77], bin 10"));
    assertTrue(page.contains("<td>AGES</td><td>TRIPS</td><td>PREFIX(AGE)</td><td>ε=0.5</td>"));
    assertTrue(page.contains("<td>DHC</td>"));
    assertTrue(page.contains("NATION (budget 1, Δ=2, 1 geographies, 3 iterations)"));
    assertTrue(page.contains("{N, S, &lt;b&gt;E&lt;/b&gt;, W}"), "domain values are escaped");
    assertFalse(page.contains("<b>E</b>"));
    assertFalse(page.contains("pbkdf2"));
    String failed = PolicyPage.failed("p<script>.yaml", "XDP04: <script>bad</script>");
    assertFalse(failed.contains("<script>"));
    assertTrue(failed.contains("does not load now"));
  }
}
