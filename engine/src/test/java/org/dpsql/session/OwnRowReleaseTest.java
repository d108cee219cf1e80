package org.dpsql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.release.ResultTable;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.WorkloadQuery;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a workload whose own rows are too ill-conditioned for least squares, released through
 * the session's workload path and answered by its own measurements. 410 random long ranges of an
 * integer column {@code H} of 1,000 bins, each counted per value of a column {@code G} of 5 values
 * ({@code SELECT G, COUNT(*) FROM T WHERE H BETWEEN a AND b GROUP BY G}): a UNION ALL of 410 parts,
 * 2,050 queries over 5,000 cells, built from one analysed part (the SQL text of so many parts is
 * beyond what the front end parses in test time). Conjugate gradients fail on these rows within
 * their cap, as on 2,100 ranges over 4,000 cells ({@code OwnRowAnswersTest}), at a quarter of the
 * front end's planning cost. On H2, with a noise-free budget (ρ = 10⁸ per statement, noise
 * standard deviation below 0.003):
 *
 * <ul>
 *   <li>{@code EXPLAIN PLAN FOR} names the strategy {@code OwnAnswers(Direct(...))}, says it is
 *       answered by its own measurements, and states the expected RMSE the ledger records;
 *   <li>the answers equal the backend's counts, and the statement is charged once, as {@code
 *       discrete_gaussian} with the stated RMSE of its own measurements;
 *   <li>the same statement, a subset of its parts and one of its parts as a single query, asked
 *       again, are free (ledger source {@code synopsis}) and return the same answers;
 *   <li>a range that is not one of the measured ones is not answered from the release (no cell
 *       estimates, no least squares): it is measured anew and charged;
 *   <li>the kept synopsis has no cell estimates; written for a ledger store and read back, it
 *       answers its queries as before.
 * </ul>
 */
class OwnRowReleaseTest {
  private static final int CELLS = 1000;
  private static final int GROUPS = 5;
  private static final int PARTS = 410;

  /** {@code template}'s filter with its two numeric literals replaced by {@code a} and {@code b}. */
  private static AggregateQuery range(AggregateQuery template, int a, int b) {
    int[] seen = {0};
    SqlNode where = template.where().accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlLiteral literal) {
        if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL) {
          return SqlLiteral.createExactNumeric(Integer.toString(seen[0]++ == 0 ? a : b),
              SqlParserPos.ZERO);
        }
        return literal;
      }
    });
    assertEquals(2, seen[0], "the template's filter has two bounds: " + template.where());
    return new AggregateQuery(template.table(), template.groupBy(), template.outputs(), where,
        template.hint(), template.orderBy(), template.offset(), template.fetch(),
        template.joins());
  }

  private static WorkloadQuery union(AggregateQuery first, List<AggregateQuery> parts) {
    return new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL, first.table(), parts, first.hint(),
        List.of());
  }

  private static long measured(Accountant a) {
    return a.ledger().stream().filter(e -> !e.source().equals(LedgerEntry.SYNOPSIS)).count();
  }

  @Test
  void ownMeasurementsAnswerTheWorkloadAndOnlyItsQueriesAreFree() throws Exception {
    String url = "jdbc:h2:mem:own" + UUID.randomUUID().toString().replace("-", "");
    Path policy = Files.createTempFile("dpsql-own", ".yaml");
    try (Connection backend = DriverManager.getConnection(url)) {
      long[][] x = new long[CELLS][GROUPS];
      try (Statement st = backend.createStatement()) {
        st.execute("CREATE TABLE T (ID INT PRIMARY KEY, H INT NOT NULL, G VARCHAR(1) NOT NULL)");
      }
      SplittableRandom r = new SplittableRandom(4);
      try (PreparedStatement ps = backend.prepareStatement("INSERT INTO T VALUES (?, ?, ?)")) {
        for (int i = 0; i < 3000; i++) {
          int h = r.nextInt(CELLS);
          int g = r.nextInt(GROUPS);
          x[h][g]++;
          ps.setInt(1, i);
          ps.setInt(2, h);
          ps.setString(3, String.valueOf("abcde".charAt(g)));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 1000000000000}\n  default_query: {rho: 100000000}\n"
          + "tables:\n  T:\n    privacy_unit: ROW\n    columns:\n"
          + "      H: {min: 0, max: " + (CELLS - 1) + ", bin: 1}\n"
          + "      G: {values: [a, b, c, d, e]}\n");
      Properties info = new Properties();
      info.setProperty("policy", policy.toString());
      try (DpsqlSession session = DpsqlSession.open(url, info)) {
        AnalyzedStatement.PrivateWorkload st = (AnalyzedStatement.PrivateWorkload)
            new org.dpsql.sql.FrontEnd(session.policy(), session.catalog(), backend.getSchema(),
                SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData())).analyze(
                    "SELECT G, COUNT(*) FROM T WHERE H BETWEEN 1 AND 2 GROUP BY G UNION ALL "
                        + "SELECT G, COUNT(*) FROM T WHERE H BETWEEN 3 AND 4 GROUP BY G");
        AggregateQuery template = st.query().parts().get(0);
        SplittableRandom q = new SplittableRandom(3000);
        List<AggregateQuery> parts = new ArrayList<>();
        long[][] truth = new long[PARTS][GROUPS];
        int[][] bounds = new int[PARTS][];
        java.util.Set<Long> ranges = new java.util.HashSet<>();
        for (int p = 0; p < PARTS; p++) {
          int a = q.nextInt(CELLS);
          int b = q.nextInt(CELLS);
          parts.add(range(template, Math.min(a, b), Math.max(a, b)));
          bounds[p] = new int[] {Math.min(a, b), Math.max(a, b)};
          ranges.add(Math.min(a, b) * (long) CELLS + Math.max(a, b));
          for (int h = Math.min(a, b); h <= Math.max(a, b); h++) {
            for (int g = 0; g < GROUPS; g++) {
              truth[p][g] += x[h][g];
            }
          }
        }
        WorkloadQuery workload = union(template, parts);
        Accountant accountant = Accountant.create(Accounting.ZCDP,
            PrivacyCost.zcdp(new BigDecimal("1000000000000")), null);
        ExactMeasurer measurer = new ExactMeasurer(backend,
            SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData()));
        WorkloadExecutor ex = new WorkloadExecutor(session.policy(), accountant, null,
            new SeededRandomBits(11), measurer, Releases.inMemory(session.policy()));

        // EXPLAIN PLAN FOR the batch: its own rows, answered by their own measurements
        StringBuilder explained = new StringBuilder();
        for (Object[] row : ExplainTable.plan(workload, session).rows()) {
          explained.append(row[0]).append('\n');
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("strategy OwnAnswers\\("
            + "(Weighted)?Direct\\(Predicates\\(2050x5000\\).*, expected RMSE per query ([0-9.]+)")
            .matcher(explained);
        assertTrue(m.find(), explained.toString());
        assertTrue(explained.toString().contains("answered by its own measurements"),
            explained.toString());
        long started = System.nanoTime();
        ResultTable first = ex.release(workload, "the 410 ranges", List.of());
        System.out.printf("%d ranges x %d groups over %d x %d cells released in %.2f s%n", PARTS,
            GROUPS, CELLS, GROUPS, (System.nanoTime() - started) / 1e9);
        assertEquals(PARTS * GROUPS, first.rows().size());
        for (int p = 0; p < PARTS; p++) {
          for (int g = 0; g < GROUPS; g++) {
            Object[] row = first.rows().get(p * GROUPS + g);
            assertEquals(String.valueOf("abcde".charAt(g)), row[0], "part " + p);
            assertEquals(truth[p][g], Math.round((Double) row[1]), "part " + p + ", group " + g);
          }
        }
        assertEquals(1, measured(accountant), "charged once");
        LedgerEntry charged = accountant.ledger().get(0);
        assertEquals("discrete_gaussian", charged.mechanism());
        assertTrue(charged.expectedRmse() > 0 && charged.expectedRmse() < 0.01,
            "noise-free RMSE " + charged.expectedRmse());
        assertEquals(Double.parseDouble(m.group(2)), charged.expectedRmse(),
            1e-3 * charged.expectedRmse(), "EXPLAIN's expected RMSE is the one charged");
        Synopsis kept = ex.synopses().get(0);
        assertNull(kept.values(), "answered by its own measurements: no cell estimates");
        assertTrue(kept.mechanism().equals("discrete_gaussian"), kept.mechanism());
        PrivacyCost spent = accountant.spent();
        // kept by a ledger store: the measured values and the rows are written, read back the same
        Synopsis back = ReleaseCodec.readSynopsis(ReleaseCodec.synopsis(kept), session.policy());
        assertNull(back.values());
        org.junit.jupiter.api.Assertions.assertArrayEquals(kept.estimate().measuredValues(),
            back.estimate().measuredValues());
        // part 17's count of G = 'c': its cells (h, c) for h in its range, G varying fastest
        double[] part17 = new double[CELLS * GROUPS];
        for (int h = bounds[17][0]; h <= bounds[17][1]; h++) {
          part17[h * GROUPS + 2] = 1;
        }
        assertEquals((Double) first.rows().get(17 * GROUPS + 2)[1], back.estimate().answer(part17),
            1e-9);
        assertEquals(kept.estimate().variance(part17), back.estimate().variance(part17), 0);

        // the same statement again, a subset of its parts, and one part alone (the same queries
        // asked again): free, the same answers
        ResultTable again = ex.release(workload, "the 410 ranges again", List.of());
        for (int k = 0; k < PARTS * GROUPS; k++) {
          assertEquals((Double) first.rows().get(k)[1], (Double) again.rows().get(k)[1]);
        }
        ResultTable some = ex.release(union(template, parts.subList(100, 110)), "ten of them",
            List.of());
        for (int k = 0; k < 10 * GROUPS; k++) {
          assertEquals((Double) first.rows().get(100 * GROUPS + k)[1],
              (Double) some.rows().get(k)[1]);
        }
        ResultTable one = ex.fromSynopses(parts.get(17), "one of them", List.of());
        assertNotNull(one, "one of the measured queries is answered from the release");
        for (int g = 0; g < GROUPS; g++) {
          assertEquals((Double) first.rows().get(17 * GROUPS + g)[1], (Double) one.rows().get(g)[1]);
        }
        assertEquals(1, measured(accountant), "repeated queries are free");
        assertEquals(spent, accountant.spent());
        assertTrue(accountant.ledger().stream().filter(e -> e.source().equals(
            LedgerEntry.SYNOPSIS)).count() == 3, accountant.ledger().toString());

        // a range that was not measured: not answered from the release, measured anew
        int a = 10;
        int b = 10;
        while (ranges.contains(a * (long) CELLS + b)) {
          b++;
        }
        AggregateQuery other = range(template, a, b);
        assertNull(ex.fromSynopses(other, "another range", List.of()));
        ResultTable fresh = ex.release(union(template, List.of(other)), "another range",
            List.of());
        for (int g = 0; g < GROUPS; g++) {
          long want = 0;
          for (int h = a; h <= b; h++) {
            want += x[h][g];
          }
          assertEquals(want, Math.round((Double) fresh.rows().get(g)[1]), "group " + g);
        }
        assertEquals(2, measured(accountant), "a query outside the measured ones is charged");
        assertTrue(accountant.spent().rho().compareTo(spent.rho()) > 0);
        assertTrue(charged.statement().contains("410"));
      }
    } finally {
      Files.deleteIfExists(policy);
    }
  }
}
