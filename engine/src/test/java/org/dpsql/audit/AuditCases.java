package org.dpsql.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * The release paths dpsql has today, each as an {@link AuditCase} with its worst-case neighbour:
 * the added unit (D' = D + unit) contributes as much as the policy lets it, and more, so that the
 * honest engine must bound it and a broken one does not.
 *
 * <ul>
 *   <li>Aggregates (table T, unit UNIT, k = 2, V clamped to [0, 10]): D has 20 units with 2 rows
 *       each in cell A (V = 0) and 20 rows in cell B; the added unit has 100 rows, all in cell A,
 *       with V = 1000: the honest engine keeps 2 of them and clamps each to 10 (the policy's worst
 *       case: k rows in one cell at the clamp's end), so COUNT moves by 2 and SUM by 20.
 *   <li>Workloads: the same table with an ordered column AGE (8 cells); the unit's rows are in
 *       one AGE cell.
 *   <li>Optimal PMF: COUNT(*) of cell A, answer range [0, 60].
 *   <li>InfTDA: a 2 × 3 hierarchy STATE/COUNTY; the unit's 100 rows in one leaf (the deepest level).
 *   <li>HTF: an 8 × 8 grid; the unit's 100 points in the densest cell.
 *   <li>SafeTab: one level of 16 TotalOnly iterations, Δ = 1; the added person belongs to all 16.
 *   <li>The relational front end: the aggregate data set, with COUNTs inside subqueries and a join
 *       of two private aggregates, post-processed above the release; a SUM of an expression (a
 *       computed column bounded by interval arithmetic); a GROUP BY of a CASE band (a derived
 *       column over AGE's cells); a daily series of a TIMESTAMP column with day bins, grouped by
 *       CAST(TS AS DATE) and filtered by a date range (the unit's rows on one day).
 *   <li>A time-series synopsis: DPSQL.WORKLOAD ALL_RANGES(TS) over TS's 7 day bins with
 *       output=cells (the synopsis released, charged once), then a date range over TS answered
 *       from it for free; the released value is the free range's count.
 *   <li>The same over TS's 2,184 hourly bins (January to March 2024), where the Eigen-Design is
 *       designed through fast transforms and measured on its implicit lattice strategy.
 *   <li>COUNT(DISTINCT UNIT) GROUP BY AGE: the unit's 100 rows spread over every AGE cell.
 *   <li>COUNT(*) over T joined on the unit with U, a second private table of the same persons:
 *       the unit's 100 rows of T and 5 rows of U give 500 rows of the join; and over U LEFT JOIN
 *       T, with ten persons in U alone.
 *   <li>MEDIAN(V) GROUP BY G, V clamped to [0, 100] (a grid of 101 integers): cell A holds 20
 *       values at 0 and 20 at 100, so every point is an exact median and the release is uniform;
 *       the unit's 100 rows at V = 1000 (clamped to 100) move the target rank as far as k = 2
 *       rows can.
 *   <li>The first and third quartiles of V by JointExp (one release): the same data.
 *   <li>MEDIAN(V) with COUNT(*) in one SELECT (one release, the budget split between the parts):
 *       the same data.
 * </ul>
 */
final class AuditCases {
  private AuditCases() {}

  /** Every path, in report order. */
  static List<AuditCase> all() {
    return List.of(countGeometric(), countReservoir(), countDiscreteGaussian(), countScaledForTrino(),
        sumScaledPairsForTrino(), sumGeometric(),
        sumDiscreteGaussian(), avgGeometric(), avgDiscreteGaussian(), workloadIdentity(),
        workloadEigen(), optimalPmf(), topDown(), htf(), adaptiveTable(), relationalSubquery(),
        relationalJoin(), relationalExpression(), relationalDerivedGroup(), timeSeries(), timeSeriesSynopsis(),
        timeSeriesTransformSynopsis(),
        variance(), distinctUnits(), distinctValues(), privateJoin(), privateLeftJoin(),
        privateSemiJoin(), median(), quartiles(), medianWithCount(), privateKeys(), parameterizedSubquery(),
        boundFilter(),
        relativeDateSeries(), boundTimeRange());
  }

  static final String PURE = "budget:\n  accounting: pure\n  per_connection: {epsilon: 20}\n"
      + "  default_query: {epsilon: 1}\n";
  /** Pure, with a default query of ε = 2 (for statements of the relational front end). */
  static final String PURE_DEFAULT_2 = "budget:\n  accounting: pure\n  per_connection: {epsilon: 20}\n"
      + "  default_query: {epsilon: 2}\n";
  static final String APPROX = "budget:\n  accounting: approx\n"
      + "  per_connection: {epsilon: 20, delta: 1e-3}\n  default_query: {epsilon: 1, delta: 1e-6}\n";
  static final String ZCDP = "budget:\n  accounting: zcdp\n  per_connection: {rho: 10, delta: 1e-6}\n"
      + "  default_query: {rho: 0.05}\n";

  // ---- aggregates over T(ID, UNIT, G, AGE, V) ----

  private static final int UNIT = 999;

  static List<String> aggregateBackground() {
    List<String> s = new ArrayList<>();
    s.add("CREATE TABLE T (ID INT PRIMARY KEY, UNIT INT NOT NULL, G VARCHAR(1), AGE INT, V INT, "
        + "TS TIMESTAMP)");
    StringBuilder rows = new StringBuilder("INSERT INTO T VALUES ");
    int id = 0;
    for (int u = 0; u < 20; u++) {
      for (int r = 0; r < 2; r++) {
        rows.append(id == 0 ? "" : ", ").append("(").append(id++).append(", ").append(u)
            .append(", 'A', ").append(u % 8).append(", 0, TIMESTAMP '2024-01-0")
            .append(1 + u % 7).append(" 10:00:00')");
      }
    }
    for (int u = 20; u < 40; u++) {
      rows.append(", (").append(id++).append(", ").append(u).append(", 'B', ").append(u % 8)
          .append(", ").append(u % 11).append(", TIMESTAMP '2024-01-0").append(1 + u % 7)
          .append(" 18:30:00')");
    }
    s.add(rows.toString());
    return s;
  }

  /**
   * The unit's 100 rows, all in cell (G = A, AGE = 3), V = 1000 (clamped to 10), picked up on 4
   * January at different minutes (one day bin of TS).
   */
  static List<String> aggregateUnit() {
    return List.of("INSERT INTO T SELECT 100000 + X, " + UNIT + ", 'A', 3, 1000, "
        + "DATEADD('MINUTE', 7 * X, TIMESTAMP '2024-01-04 00:00:00') FROM SYSTEM_RANGE(1, 100)");
  }

  static String aggregatePolicy(String budget, String extra) {
    return "allow_seed: true\n" + budget + "tables:\n  T:\n    privacy_unit: UNIT\n"
        + "    max_rows_per_unit: 2\n    columns:\n      G: {values: [A, B]}\n"
        + "      AGE: {min: 0, max: 7, bin: 1}\n      V: {clamp: [0, 10]}\n" + extra;
  }

  private static AuditCase aggregate(String name, String description, String budget, String sql,
      ReleasedValue value, BackendFault fault) {
    return new AuditCase(name, description, aggregateBackground(), aggregateUnit(),
        aggregatePolicy(budget, ""), sql, value, fault);
  }

  static AuditCase countGeometric() {
    return aggregate("count-geometric", "COUNT(*) GROUP BY G, two-sided geometric, pure ε = 3",
        PURE, "SELECT /*+ DP(epsilon='3', mechanism='geometric') */ G, COUNT(*) AS N FROM T "
            + "GROUP BY G", ReleasedValue.cell("G", "A", "N"), BackendFault.COUNTED_TWICE);
  }

  /**
   * The count of {@link #countGeometric()} measured by streaming (the default on embedded H2),
   * against a reservoir that keeps k + 1 = 3 of each unit's rows: the added unit then moves the
   * count by 3 against noise calibrated to 2, a privacy loss of 4.5 against the charged 3.
   */
  static AuditCase countReservoir() {
    return aggregate("count-reservoir", "COUNT(*) GROUP BY G, two-sided geometric, pure ε = 3, "
            + "bounded in the JVM by streaming", PURE,
        "SELECT /*+ DP(epsilon='3', mechanism='geometric') */ G, COUNT(*) AS N FROM T "
            + "GROUP BY G", ReleasedValue.cell("G", "A", "N"), BackendFault.RESERVOIR_K_PLUS_1);
  }

  static AuditCase countDiscreteGaussian() {
    return aggregate("count-dgauss", "COUNT(*) GROUP BY G, discrete Gaussian, approx (ε, δ) = "
            + "(1, 1e-6)", APPROX, "SELECT /*+ DP(epsilon='1', delta='1e-6', "
            + "mechanism='gaussian') */ G, COUNT(*) AS N FROM T GROUP BY G",
        ReleasedValue.cell("G", "A", "N"), BackendFault.BOUNDING_OFF);
  }

  /**
   * The count of {@link #countDiscreteGaussian()} with the statement dpsql writes for Trino
   * (bounding by scaling, {@code ScaledBoundingSql}), run by H2 presented as Trino.
   */
  static AuditCase countScaledForTrino() {
    return aggregate("count-dgauss-trino", "COUNT(*) GROUP BY G, discrete Gaussian, approx (ε, "
            + "δ) = (1, 1e-6), bounded by scaling (the statement written for Trino)", APPROX,
        "SELECT /*+ DP(epsilon='1', delta='1e-6', mechanism='gaussian') */ G, COUNT(*) AS N "
            + "FROM T GROUP BY G", ReleasedValue.cell("G", "A", "N"), BackendFault.SCALING_OFF);
  }

  /**
   * A sum over more cells than the statement for Trino reduces to one row per unit ({@code
   * ScaledBoundingSql.MAX_UNIT_ROW_CELLS}): G × AGE × day of TS, 112 cells, bounded by scaling with
   * the window over (unit, cell) pairs, run by H2 presented as Trino. The added unit's 100 rows
   * lie in one cell.
   */
  static AuditCase sumScaledPairsForTrino() {
    return new AuditCase("sum-dgauss-trino-pairs", "SUM(V) GROUP BY G, AGE, day of TS (112 "
            + "cells), discrete Gaussian, zCDP ρ = 0.05, bounded by scaling over (unit, cell) pairs "
            + "(the statement written for Trino)", aggregateBackground(), aggregateUnit(),
        aggregatePolicy(ZCDP, "      TS: {min: 2024-01-01, max: 2024-01-07, bin: 1 day}\n"),
        "SELECT /*+ DP(rho='0.05', mechanism='gaussian') */ G, AGE, CAST(TS AS DATE) AS D, "
            + "SUM(V) AS S FROM T GROUP BY G, AGE, CAST(TS AS DATE)",
        ReleasedValue.cell(java.util.Map.of("G", "A", "AGE", 3,
            "D", java.sql.Date.valueOf("2024-01-04")), "S"), BackendFault.SCALING_OFF);
  }

  static AuditCase sumGeometric() {
    return aggregate("sum-geometric", "SUM(V) GROUP BY G, two-sided geometric, pure ε = 2", PURE,
        "SELECT /*+ DP(epsilon='2', mechanism='geometric') */ G, SUM(V) AS S FROM T GROUP BY G",
        ReleasedValue.cell("G", "A", "S"), BackendFault.CLAMP_IGNORED);
  }

  static AuditCase sumDiscreteGaussian() {
    return aggregate("sum-dgauss", "SUM(V) GROUP BY G, discrete Gaussian, zCDP ρ = 0.05", ZCDP,
        "SELECT /*+ DP(rho='0.05', mechanism='gaussian') */ G, SUM(V) AS S FROM T GROUP BY G",
        ReleasedValue.cell("G", "A", "S"), BackendFault.CLAMP_IGNORED);
  }

  static AuditCase avgGeometric() {
    return aggregate("avg-geometric", "AVG(V) GROUP BY G (noisy SUM / noisy COUNT), geometric, "
            + "pure ε = 2", PURE, "SELECT /*+ DP(epsilon='2', mechanism='geometric') */ G, "
            + "AVG(V) AS M FROM T GROUP BY G",
        ReleasedValue.cell("G", "A", "M"), BackendFault.CLAMP_IGNORED);
  }

  static AuditCase avgDiscreteGaussian() {
    return aggregate("avg-dgauss", "AVG(V) GROUP BY G (noisy SUM / noisy COUNT), discrete "
            + "Gaussian, zCDP ρ = 0.05", ZCDP, "SELECT /*+ DP(rho='0.05', mechanism='gaussian') */"
            + " G, AVG(V) AS M FROM T GROUP BY G",
        ReleasedValue.cell("G", "A", "M"), BackendFault.BOUNDING_OFF);
  }

  static AuditCase workloadIdentity() {
    return aggregate("workload-identity", "DPSQL.WORKLOAD IDENTITY(AGE), matrix mechanism with "
            + "the identity strategy, lattice Laplace noise, pure ε = 2", PURE,
        "SELECT * FROM TABLE(DPSQL.WORKLOAD('T', 'IDENTITY(AGE)', 'epsilon=2, "
            + "mechanism=identity'))", ReleasedValue.cell("QUERY", "AGE = 3", "VALUE"),
        BackendFault.BOUNDING_OFF);
  }

  static AuditCase workloadEigen() {
    return aggregate("workload-eigen", "DPSQL.WORKLOAD ALL_RANGES(AGE), matrix mechanism with "
            + "the Eigen-Design strategy, lattice discrete Gaussian noise, zCDP ρ = 0.05", ZCDP,
        "SELECT * FROM TABLE(DPSQL.WORKLOAD('T', 'ALL_RANGES(AGE)', 'rho=0.05, "
            + "mechanism=eigen'))", ReleasedValue.cell("QUERY", "AGE = 3", "VALUE"),
        BackendFault.BOUNDING_OFF);
  }

  static AuditCase optimalPmf() {
    return new AuditCase("optimal-pmf", "COUNT(*) of one cell, optimal PMF modulo the answer range "
        + "[0, 60], pure ε = 2", aggregateBackground(), aggregateUnit(),
        aggregatePolicy(PURE, "    answer_range: [0, 60]\n"),
        "SELECT /*+ DP(epsilon='2', mechanism='optimal_pmf') */ COUNT(*) AS N FROM T "
            + "WHERE G = 'A'", ReleasedValue.single("N"), BackendFault.BOUNDING_OFF);
  }

  // ---- the relational front end: private aggregates inside larger statements ----

  static AuditCase relationalSubquery() {
    return aggregate("relational-subquery", "COUNT(*) in a subquery with arithmetic above it "
            + "(relational front end: released in canonical form, post-processed), geometric, "
            + "pure ε = 2 (default_query)", PURE_DEFAULT_2,
        "SELECT n * 2 + 1 AS X FROM (SELECT COUNT(*) AS n FROM T WHERE G = 'A') s",
        ReleasedValue.single("X"), BackendFault.BOUNDING_OFF);
  }

  static AuditCase relationalJoin() {
    return aggregate("relational-join", "two private COUNTs of cell A joined on G and added "
            + "(relational front end: ε split over the two aggregates), geometric, pure ε = 2 "
            + "(default_query)", PURE_DEFAULT_2,
        "SELECT a.n + b.n AS X FROM (SELECT G, COUNT(*) AS n FROM T GROUP BY G) a JOIN "
            + "(SELECT G, COUNT(*) AS n FROM T WHERE AGE >= 0 GROUP BY G) b ON a.G = b.G "
            + "WHERE a.G = 'A'", ReleasedValue.single("X"), BackendFault.BOUNDING_OFF);
  }

  static AuditCase relationalExpression() {
    return aggregate("relational-expression", "SUM of an expression of a categorical and a "
            + "clamped column (relational front end: a computed column whose range [0, 21] comes "
            + "from interval arithmetic), geometric, pure ε = 2", PURE,
        "SELECT /*+ DP(epsilon='2', mechanism='geometric') */ SUM(CASE WHEN G = 'A' THEN V * 2 + 1"
            + " ELSE 0 END) AS S FROM T", ReleasedValue.single("S"), BackendFault.BOUNDING_OFF);
  }

  static AuditCase relationalDerivedGroup() {
    return aggregate("relational-derived-group", "COUNT(*) GROUP BY a CASE band of AGE "
            + "(relational front end: a derived column evaluated on AGE's domain, measured over "
            + "AGE's cells as a workload), pure ε = 2 (default_query)", PURE_DEFAULT_2,
        "SELECT CASE WHEN AGE < 4 THEN 'low' ELSE 'high' END AS B, COUNT(*) AS N FROM T GROUP BY 1",
        ReleasedValue.cell("B", "low", "N"), BackendFault.BOUNDING_OFF);
  }

  /**
   * COUNT(DISTINCT V) of cell A, where every background row has V = 0: the added unit has 100
   * rows in cell A with 100 different values of V. The honest engine keeps 2 of them, so the
   * count moves by at most 2 = min(k, ...), its charged sensitivity; with bounding off by 100.
   */
  static AuditCase distinctValues() {
    return new AuditCase("count-distinct-column", "COUNT(DISTINCT V) of cell A (sensitivity k = "
        + "2: each bounded row adds at most one value), geometric, pure ε = 3",
        aggregateBackground(), List.of("INSERT INTO T SELECT 100000 + X, " + UNIT + ", 'A', 3, "
            + "X, TIMESTAMP '2024-01-01 00:00:00' FROM SYSTEM_RANGE(1, 100)"),
        aggregatePolicy(PURE, ""),
        "SELECT /*+ DP(epsilon='3', mechanism='geometric') */ COUNT(DISTINCT V) AS N FROM T "
            + "WHERE G = 'A'", ReleasedValue.single("N"), BackendFault.BOUNDING_OFF);
  }

  /**
   * VAR_POP(V) of cell A: post-processing of COUNT(V), SUM(V) and SUM(V * V) released together
   * (ε split in three); the unit's 100 rows at V = 1000 are bounded to 2 and clamped to 10.
   */
  static AuditCase variance() {
    return aggregate("variance", "VAR_POP(V) of cell A (relational front end: COUNT, SUM and SUM "
            + "of squares released with ε split in three, the variance post-processed), pure ε = "
            + "2 (default_query)", PURE_DEFAULT_2,
        "SELECT VAR_POP(V) AS X FROM T WHERE G = 'A'", ReleasedValue.single("X"),
        BackendFault.BOUNDING_OFF);
  }

  /**
   * A daily series over TS (day bins, 2024-01-01 to 2024-01-07) with a date range: a derived
   * column (CAST(TS AS DATE)) and a derived filter evaluated on the bin starts, measured over TS's
   * cells as a workload; the unit's 100 rows fall on 4 January.
   */
  static AuditCase timeSeries() {
    return new AuditCase("time-series", "COUNT(*) GROUP BY CAST(TS AS DATE) WHERE TS >= a bin "
            + "start (relational front end: time bins, derived group and filter over TS's day "
            + "cells as a workload), pure ε = 2 (default_query)", aggregateBackground(),
        aggregateUnit(), aggregatePolicy(PURE_DEFAULT_2,
            "      TS: {min: 2024-01-01, max: 2024-01-07, bin: 1 day}\n"),
        "SELECT CAST(TS AS DATE) AS D, COUNT(*) AS N FROM T WHERE TS >= TIMESTAMP "
            + "'2024-01-02 00:00:00' GROUP BY CAST(TS AS DATE)",
        ReleasedValue.cell("D", java.sql.Date.valueOf("2024-01-04"), "N"),
        BackendFault.BOUNDING_OFF);
  }

  /**
   * A time series released once as a synopsis and a later range answered from it: on each
   * connection, {@code DPSQL.WORKLOAD('T', 'ALL_RANGES(TS)', 'output=cells')} over TS's 7 day bins
   * (Eigen-Design, zCDP ρ = 0.05, the connection's only charge), then a range of three days that
   * holds the unit's 100 rows, answered from the synopsis (post-processing, free). The audited
   * value is that range's count; the claim is the connection's whole charge.
   */
  static AuditCase timeSeriesSynopsis() {
    return new AuditCase("time-series-synopsis", "DPSQL.WORKLOAD ALL_RANGES(TS) over 7 day bins, "
            + "output=cells (Eigen-Design, lattice discrete Gaussian, zCDP ρ = 0.05), then a date "
            + "range answered free from the synopsis", aggregateBackground(), aggregateUnit(),
        aggregatePolicy(ZCDP, "      TS: {min: 2024-01-01, max: 2024-01-07, bin: 1 day}\n"),
        "SELECT COUNT(*) AS N FROM T WHERE TS >= TIMESTAMP '2024-01-03 00:00:00' AND TS < "
            + "TIMESTAMP '2024-01-06 00:00:00'", ReleasedValue.single("N"),
        BackendFault.BOUNDING_OFF, List.of("SELECT * FROM TABLE(DPSQL.WORKLOAD('T', "
            + "'ALL_RANGES(TS)', 'rho=0.05, mechanism=eigen, output=cells'))"));
  }

  /**
   * {@link #timeSeriesSynopsis()} over TS's 2,184 hourly bins (2024-01-01 00:00 to 2024-03-31
   * 23:00): above 2,048 cells the Eigen-Design is the transform design, measured on the implicit
   * integer strategy {@code SineLattice} with its exact sensitivity (issue 33). The unit's 100 rows
   * fall in 12 hourly bins of 4 January; the audited value is the count of 3 to 5 January.
   */
  static AuditCase timeSeriesTransformSynopsis() {
    return new AuditCase("time-series-synopsis-transform", "DPSQL.WORKLOAD ALL_RANGES(TS) over "
            + "2,184 hour bins, output=cells (transform Eigen-Design on SineLattice, exact discrete "
            + "Gaussian, zCDP ρ = 0.05), then a date range answered free from the synopsis",
        aggregateBackground(), aggregateUnit(),
        aggregatePolicy(ZCDP, "      TS: {min: 2024-01-01, max: 2024-03-31 23:00, bin: 1 hour}\n"),
        "SELECT COUNT(*) AS N FROM T WHERE TS >= TIMESTAMP '2024-01-03 00:00:00' AND TS < "
            + "TIMESTAMP '2024-01-06 00:00:00'", ReleasedValue.single("N"),
        BackendFault.BOUNDING_OFF, List.of("SELECT * FROM TABLE(DPSQL.WORKLOAD('T', "
            + "'ALL_RANGES(TS)', 'rho=0.05, mechanism=eigen, output=cells'))"));
  }

  /**
   * COUNT(DISTINCT UNIT) GROUP BY AGE, summed over the 8 cells: the added unit has 100 rows spread
   * over every AGE cell. The honest engine keeps 2 of them, so the unit reaches at most 2 cells and
   * the sum moves by at most 2 = min(k, cells), the sensitivity it charges for; with bounding off
   * the unit is counted in all 8 cells.
   */
  static AuditCase distinctUnits() {
    return new AuditCase("count-distinct-unit", "COUNT(DISTINCT UNIT) GROUP BY AGE (sensitivity "
        + "min(k, cells) = 2), geometric, pure ε = 3; released value: the sum over the 8 cells",
        aggregateBackground(), List.of("INSERT INTO T SELECT 100000 + X, " + UNIT + ", 'A', "
            + "MOD(X, 8), 1000, TIMESTAMP '2024-01-01 00:00:00' FROM SYSTEM_RANGE(1, 100)"),
        aggregatePolicy(PURE, ""),
        "SELECT /*+ DP(epsilon='3', mechanism='geometric') */ AGE, COUNT(DISTINCT UNIT) AS N "
            + "FROM T GROUP BY AGE", ReleasedValue.sumOf("N"), BackendFault.BOUNDING_OFF);
  }

  /**
   * The policy of the private join paths: T and U private tables of the same persons ({@code
   * unit: person}), T bounded to 2 rows per unit and U to 1, pure ε = 2 per query.
   */
  private static final String PERSON_TABLES_T_AND_U = "allow_seed: true\n" + PURE_DEFAULT_2
      + "tables:\n  T:\n"
      + "    privacy_unit: UNIT\n    unit: person\n    max_rows_per_unit: 2\n"
      + "    columns:\n      G: {values: [A, B]}\n  U:\n    privacy_unit: UNIT\n"
      + "    unit: person\n    max_rows_per_unit: 1\n    columns:\n"
      + "      PLAN: {values: [P, Q]}\n";

  /**
   * COUNT(*) GROUP BY PLAN over T joined with U(UNIT, PLAN), a second private table of the same
   * persons ({@code unit: person} on both): the added unit has 100 rows in T and 5 in U, so 500
   * rows in the join, all in cell P. The honest engine bounds the join's rows to k = 2 per unit
   * (the larger of the tables' bounds) after the join; with bounding off all 500 are counted.
   */
  static AuditCase privateJoin() {
    List<String> background = new ArrayList<>(aggregateBackground());
    background.add("CREATE TABLE U (UNIT INT NOT NULL, PLAN VARCHAR(1))");
    background.add("INSERT INTO U SELECT X, CASE WHEN MOD(X, 2) = 0 THEN 'P' ELSE 'Q' END "
        + "FROM SYSTEM_RANGE(0, 39)");
    List<String> unit = new ArrayList<>(aggregateUnit());
    unit.add("INSERT INTO U SELECT " + UNIT + ", 'P' FROM SYSTEM_RANGE(1, 5)");
    String policy = PERSON_TABLES_T_AND_U;
    return new AuditCase("private-join", "COUNT(*) GROUP BY U.PLAN over T JOIN U ON the unit "
            + "(two private tables of the same persons, bounded to k = 2 after the join, fan-out "
            + "100 × 5), pure ε = 2 (default_query)", background, unit, policy,
        "SELECT u.PLAN, COUNT(*) AS N FROM T t JOIN U u ON t.UNIT = u.UNIT GROUP BY u.PLAN",
        ReleasedValue.cell("PLAN", "P", "N"), BackendFault.BOUNDING_OFF);
  }

  /**
   * COUNT(*) over U LEFT JOIN T on the unit (U's 50 background units have one row each, 10 of them
   * no T row; the added unit has 5 rows in U and 100 in T, so 500 rows of the join); bounded to
   * k = 2 per unit (partitioned by the first non-null unit) after the join.
   */
  static AuditCase privateLeftJoin() {
    AuditCase inner = privateJoin();
    List<String> background = new ArrayList<>(inner.schemaAndBackground());
    // ten persons with a U row and no T row: null-extended rows of the join
    background.add("INSERT INTO U SELECT X, 'P' FROM SYSTEM_RANGE(40, 49)");
    return new AuditCase("private-left-join", "COUNT(*) GROUP BY U.PLAN over U LEFT JOIN T ON "
            + "the unit (outer join of two private tables of the same persons, 10 of them "
            + "without T rows, bounded to k = 2 after the join, fan-out 5 × 100), pure ε = 2 "
            + "(default_query)", background,
        inner.unitRows(), inner.policyYaml(), "SELECT u.PLAN, COUNT(*) AS N FROM U u LEFT JOIN T t "
            + "ON t.UNIT = u.UNIT GROUP BY u.PLAN", ReleasedValue.cell("PLAN", "P", "N"),
        BackendFault.BOUNDING_OFF);
  }

  /**
   * COUNT(*) of cell A over T filtered by {@code UNIT IN (SELECT UNIT FROM U WHERE PLAN = 'P')},
   * U a private table of the same persons whose unit is its primary key (one row per person): the
   * filter is answered as the join on the unit. The added unit has its 100 rows in T (cell A) and
   * one U row with plan P; the honest engine bounds the join's rows to k = 2 per unit; with
   * bounding off all 100 are counted.
   */
  static AuditCase privateSemiJoin() {
    List<String> background = new ArrayList<>(aggregateBackground());
    background.add("CREATE TABLE U (UNIT INT PRIMARY KEY, PLAN VARCHAR(1))");
    background.add("INSERT INTO U SELECT X, CASE WHEN MOD(X, 2) = 0 THEN 'P' ELSE 'Q' END "
        + "FROM SYSTEM_RANGE(0, 39)");
    List<String> unit = new ArrayList<>(aggregateUnit());
    unit.add("INSERT INTO U VALUES (" + UNIT + ", 'P')");
    String policy = PERSON_TABLES_T_AND_U;
    return new AuditCase("private-semi-join", "COUNT(*) GROUP BY G over T WHERE UNIT IN (SELECT "
            + "UNIT FROM U WHERE PLAN = 'P'), U's unit its primary key: the join on the unit, "
            + "bounded to k = 2 after the join, 100 rows of the added unit), pure ε = 2 "
            + "(default_query)", background, unit, policy,
        "SELECT G, COUNT(*) AS N FROM T WHERE UNIT IN (SELECT UNIT FROM U WHERE PLAN = 'P') "
            + "GROUP BY G", ReleasedValue.cell("G", "A", "N"), BackendFault.BOUNDING_OFF);
  }

  /**
   * MEDIAN(V) of cell A by the exponential mechanism, V clamped to [0, 100]. In D, cell A has 20
   * units with 2 rows each, half at V = 0 and half at V = 100: every point of the 101-point grid
   * scores 0 (uniform output). The added unit's rows all go to point 100; the honest engine keeps
   * 2, which moves every other point's score by 1 (k·max(p, 1 − p) = 1), a privacy loss of at
   * most 2η = ε/2 for this median (ε for the worst p); with bounding off its 100 rows make 100
   * the only median, released with probability near 1 against 1/101.
   */
  static AuditCase median() {
    List<String> s = new ArrayList<>(aggregateBackground());
    s.add("UPDATE T SET V = 100 WHERE G = 'A' AND UNIT >= 10");
    return new AuditCase("median", "MEDIAN(V) GROUP BY G, exponential mechanism over 101 grid "
            + "points (Δ = k = 2), exact sampling, pure ε = 2", s, aggregateUnit(),
        "allow_seed: true\n" + PURE + "tables:\n  T:\n    privacy_unit: UNIT\n"
            + "    max_rows_per_unit: 2\n    columns:\n      G: {values: [A, B]}\n"
            + "      V: {clamp: [0, 100]}\n",
        "SELECT /*+ DP(epsilon='2') */ G, MEDIAN(V) AS M FROM T GROUP BY G",
        ReleasedValue.cell("G", "A", "M"), BackendFault.BOUNDING_OFF);
  }

  /**
   * The first and third quartiles of V in cell A, released jointly by JointExp (Δ = 2k = 4), on
   * the data of {@link #median()}: the honest engine's 2 added rows at 100 move the joint utility
   * by at most 4; with bounding off the unit's 100 rows make 100 the first quartile too.
   */
  static AuditCase quartiles() {
    AuditCase m = median();
    return new AuditCase("quartiles-jointexp", "PERCENTILE_CONT(0.25) and (0.75) of V GROUP BY G, "
            + "one JointExp release over 101 grid points (Δ = 2k = 4), exact sampling, pure ε = 2; "
            + "released value: the first quartile", m.schemaAndBackground(), m.unitRows(),
        m.policyYaml(), "SELECT /*+ DP(epsilon='2') */ G, PERCENTILE_CONT(0.25) WITHIN GROUP "
            + "(ORDER BY V) AS Q1, PERCENTILE_CONT(0.75) WITHIN GROUP (ORDER BY V) AS Q3 FROM T "
            + "GROUP BY G", ReleasedValue.cell("G", "A", "Q1"), BackendFault.BOUNDING_OFF);
  }

  /**
   * COUNT(DISTINCT UNIT) GROUP BY K, K declared keys: private with max_groups_per_unit 1: the
   * groups K1..K10 hold 80 background units each (always selected); the added unit has 10 rows in
   * each of them. The honest engine counts it in one group (the sum of the ten released counts
   * moves by 1); with group bounding off it is counted in all ten (the sum moves by 10).
   */
  static AuditCase privateKeys() {
    List<String> background = new ArrayList<>();
    background.add("CREATE TABLE T (UNIT INT NOT NULL, K VARCHAR(4))");
    background.add("INSERT INTO T SELECT X, 'K' || (1 + MOD(X, 10)) FROM SYSTEM_RANGE(0, 799)");
    List<String> unit = List.of("INSERT INTO T SELECT " + UNIT + ", 'K' || (1 + MOD(X, 10)) "
        + "FROM SYSTEM_RANGE(0, 99)");
    return new AuditCase("private-keys", "COUNT(DISTINCT UNIT) GROUP BY K, K declared keys: "
            + "private (max_groups_per_unit 1, max_rows_per_unit 100): groups selected by "
            + "geometric noise against τ, counts released with geometric noise, approx (ε, δ) = "
            + "(4, 1e-6) split in halves; released value: the sum of the ten groups' counts",
        background, unit, "allow_seed: true\n" + APPROX + "tables:\n  T:\n"
            + "    privacy_unit: UNIT\n    max_rows_per_unit: 100\n    columns:\n"
            + "      K: {keys: private}\n",
        "SELECT /*+ DP(epsilon='4', delta='1e-6', mechanism='geometric') */ K, "
            + "COUNT(DISTINCT UNIT) AS N FROM T GROUP BY K",
        ReleasedValue.sumOf("N"), BackendFault.GROUPS_UNBOUNDED);
  }

  /**
   * MEDIAN(V) and COUNT(*) in one statement, on the data of {@link #median()}: one release at pure
   * ε = 2, split 1:1 (the count at ε = 1, the median at ε = 1); the released value is the median,
   * whose privacy loss is at most its share; with bounding off the unit's 100 rows make 100 the
   * only median, as in {@link #median()}.
   */
  static AuditCase medianWithCount() {
    AuditCase m = median();
    return new AuditCase("median-with-count", "COUNT(*) and MEDIAN(V) GROUP BY G in one SELECT, "
            + "one release of both parts, pure ε = 2 split 1:1; released value: the median",
        m.schemaAndBackground(), m.unitRows(), m.policyYaml(), "SELECT /*+ DP(epsilon='2') */ G, "
            + "COUNT(*) AS N, MEDIAN(V) AS M FROM T GROUP BY G", ReleasedValue.cell("G", "A", "M"),
        BackendFault.BOUNDING_OFF);
  }

  // ---- InfTDA over P(ID, HH, STATE, COUNTY) ----

  static AuditCase topDown() {
    List<String> s = new ArrayList<>();
    s.add("CREATE TABLE P (ID INT PRIMARY KEY, HH INT NOT NULL, STATE VARCHAR(2) NOT NULL, "
        + "COUNTY VARCHAR(2) NOT NULL)");
    s.add("INSERT INTO P SELECT X, X / 2, CASE WHEN MOD(X, 3) = 0 THEN 'S2' ELSE 'S1' END, "
        + "'C' || (1 + MOD(X, 3)) FROM SYSTEM_RANGE(0, 59)");
    String policy = "allow_seed: true\n" + ZCDP + "tables:\n  P:\n    privacy_unit: HH\n"
        + "    max_rows_per_unit: 2\n    columns:\n      STATE: {values: [S1, S2]}\n"
        + "      COUNTY: {values: [C1, C2, C3]}\n    hierarchies:\n      GEO: [STATE, COUNTY]\n";
    return new AuditCase("inftda", "ROLLUP(STATE, COUNTY) answered by InfTDA (discrete Gaussian "
        + "per level, IntOpt), zCDP ρ = 0.1; released total", s,
        List.of("INSERT INTO P SELECT 100000 + X, " + UNIT + ", 'S1', 'C1' FROM SYSTEM_RANGE(1, 100)"),
        policy, "SELECT /*+ DP(rho='0.1', mechanism='inftda') */ STATE, COUNTY, COUNT(*) AS N "
            + "FROM P GROUP BY ROLLUP(STATE, COUNTY)", ReleasedValue.rolledUpTotal("STATE", "N"),
        BackendFault.BOUNDING_OFF);
  }

  // ---- HTF over C(ID, USER_ID, X, Y) ----

  static AuditCase htf() {
    List<String> s = new ArrayList<>();
    s.add("CREATE TABLE C (ID INT PRIMARY KEY, USER_ID INT NOT NULL, X INT NOT NULL, "
        + "Y INT NOT NULL)");
    // 60 points, 30 users with 2 each; half of them in the densest cell (2, 2)
    s.add("INSERT INTO C SELECT X, X / 2, CASE WHEN MOD(X, 2) = 0 THEN 2 ELSE MOD(X * 7, 8) END, "
        + "CASE WHEN MOD(X, 2) = 0 THEN 2 ELSE MOD(X * 3, 8) END FROM SYSTEM_RANGE(0, 59)");
    String policy = "allow_seed: true\n" + PURE + "tables:\n  C:\n    privacy_unit: USER_ID\n"
        + "    max_rows_per_unit: 2\n    columns:\n      X: {min: 0, max: 7, bin: 1}\n"
        + "      Y: {min: 0, max: 7, bin: 1}\n    spatial:\n      LOCATION: [X, Y]\n";
    return new AuditCase("htf", "rectangle COUNT(*) over the whole 8 × 8 grid, answered by "
        + "an HTF tree, pure ε = 2 (ε/k per point)", s,
        List.of("INSERT INTO C SELECT 100000 + X, " + UNIT + ", 2, 2 FROM SYSTEM_RANGE(1, 100)"),
        policy, "SELECT /*+ DP(epsilon='2', mechanism='htf') */ COUNT(*) AS N FROM C "
            + "WHERE X BETWEEN 0 AND 7 AND Y BETWEEN 0 AND 7", ReleasedValue.single("N"),
        BackendFault.BOUNDING_OFF);
  }

  // ---- SafeTab over PERSONS / PERSON_ITERATION ----

  static AuditCase adaptiveTable() {
    List<String> s = new ArrayList<>();
    s.add("CREATE TABLE PERSONS (PID INT PRIMARY KEY, SEX VARCHAR(1), AGE INT)");
    s.add("CREATE TABLE PERSON_ITERATION (PID INT NOT NULL, ITERATION VARCHAR(12))");
    s.add("CREATE INDEX PERSON_ITERATION_PID ON PERSON_ITERATION(PID)");
    s.add("INSERT INTO PERSONS SELECT X, CASE WHEN MOD(X, 2) = 0 THEN 'M' ELSE 'F' END, "
        + "MOD(X * 7, 90) FROM SYSTEM_RANGE(0, 79)");
    s.add("INSERT INTO PERSON_ITERATION SELECT X, 'I' || (1 + MOD(X, 16)) FROM SYSTEM_RANGE(0, 79)");
    List<String> its = new ArrayList<>();
    for (int i = 1; i <= 16; i++) {
      its.add("I" + i);
    }
    String policy = "allow_seed: true\n" + PURE + "tables: {}\nadaptive_tables:\n  DHC:\n"
        + "    persons: {table: PERSONS, person: PID, sex: SEX, age: AGE}\n"
        + "    iterations: {table: PERSON_ITERATION, person: PID, iteration: ITERATION}\n"
        + "    mechanism: geometric\n    gamma: 0.1\n    thresholds: [20, 200, 1000]\n"
        + "    sexes: [M, F]\n    ages: {max: 115, bins: census}\n    levels:\n"
        + "      NATION: {iterations: [" + String.join(", ", its) + "], total_only: ["
        + String.join(", ", its) + "], budget: {epsilon: 1}, stability: 1}\n";
    StringBuilder unit = new StringBuilder("INSERT INTO PERSON_ITERATION VALUES ");
    for (int i = 1; i <= 16; i++) {
      unit.append(i == 1 ? "" : ", ").append("(").append(UNIT).append(", 'I").append(i)
          .append("')");
    }
    return new AuditCase("safetab", "DPSQL.ADAPTIVE_TABLE, one level of 16 TotalOnly iterations, "
        + "Δ = 1, geometric, pure ε = 1; released value: the sum of the 16 counts", s,
        List.of("INSERT INTO PERSONS VALUES (" + UNIT + ", 'F', 40)", unit.toString()), policy,
        "SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))", ReleasedValue.sumOf("COUNT"),
        BackendFault.BOUNDING_OFF);
  }

  // ---- values bound at execute: parameters and the session's clock ----

  /**
   * {@link #relationalSubquery()} as an application runs it: a prepared statement whose
   * subquery's filter takes two bound parameters (G = 'A', AGE >= 0), planned once at prepare:
   * the values bound to the release's measurement, the arithmetic above it post-processing.
   */
  static AuditCase parameterizedSubquery() {
    return new AuditCase("parameterized-subquery", "COUNT(*) in a subquery with arithmetic above "
            + "it, its filter values bound as parameters (G = ?, AGE >= ?; planned once, bound "
            + "to the release's measurement), geometric, pure ε = 2 (default_query)",
        aggregateBackground(), aggregateUnit(), aggregatePolicy(PURE_DEFAULT_2, ""),
        "SELECT n * 2 + 1 AS X FROM (SELECT COUNT(*) AS n FROM T WHERE G = ? AND AGE >= ?) s",
        ReleasedValue.single("X"), BackendFault.BOUNDING_OFF, List.of(), List.of("A", 0), null);
  }

  /**
   * A prepared aggregate whose two parameters stand in its filter (G = ?, AGE >= ?): planned once
   * at prepare, its values bound to the measurement at execute (no literal statement), the
   * release's identity being the statement's canonical aggregate with those values.
   */
  static AuditCase boundFilter() {
    return new AuditCase("bound-filter", "COUNT(*) WHERE G = ? AND AGE >= ? (planned once, the "
            + "values bound to the measurement at execute), geometric, pure ε = 2 "
            + "(default_query)", aggregateBackground(), aggregateUnit(),
        aggregatePolicy(PURE_DEFAULT_2, ""),
        "SELECT COUNT(*) AS N FROM T WHERE G = ? AND AGE >= ?",
        ReleasedValue.single("N"), BackendFault.BOUNDING_OFF, List.of(), List.of("A", 0), null);
  }

  /**
   * {@link #timeSeries()} with its range written relative to the clock: TS >= CURRENT_DATE -
   * INTERVAL '2' DAY with the session's clock at 2024-01-04 12:00 UTC, i.e. TS >= 2024-01-02,
   * evaluated once per execution and then folded into the literal bound.
   */
  static AuditCase relativeDateSeries() {
    return new AuditCase("relative-date-series", "COUNT(*) GROUP BY CAST(TS AS DATE) WHERE TS >= "
            + "CURRENT_DATE - INTERVAL '2' DAY (the session clock pinned at 2024-01-04 12:00 "
            + "UTC, folded to a bin start; relational front end, day cells as a workload), "
            + "pure ε = 2 (default_query)", aggregateBackground(), aggregateUnit(),
        aggregatePolicy(PURE_DEFAULT_2, "      TS: {min: 2024-01-01, max: 2024-01-07, bin: 1 day}\n"),
        "SELECT CAST(TS AS DATE) AS D, COUNT(*) AS N FROM T WHERE TS >= CURRENT_DATE - "
            + "INTERVAL '2' DAY GROUP BY CAST(TS AS DATE)",
        ReleasedValue.cell("D", java.sql.Date.valueOf("2024-01-04"), "N"),
        BackendFault.BOUNDING_OFF, List.of(), List.of(),
        java.time.Instant.parse("2024-01-04T12:00:00Z"));
  }

  /**
   * {@link #timeSeries()} as a dashboard runs it: a prepared daily series whose two TIMESTAMP
   * parameters bound its range (TS >= 2024-01-02, TS < 2024-01-06). The bounds decide which cells
   * are released, so the values are bound into the plan made at prepare and the release checked
   * with them (each bound on a bin start) at execute.
   */
  static AuditCase boundTimeRange() {
    return new AuditCase("bound-time-range", "COUNT(*) GROUP BY CAST(TS AS DATE) WHERE TS >= ? "
            + "AND TS < ? (planned once; the bounds bound into the plan at execute, on day bin "
            + "starts), pure ε = 2 (default_query)", aggregateBackground(), aggregateUnit(),
        aggregatePolicy(PURE_DEFAULT_2, "      TS: {min: 2024-01-01, max: 2024-01-07, bin: 1 day}\n"),
        "SELECT CAST(TS AS DATE) AS D, COUNT(*) AS N FROM T WHERE TS >= ? AND TS < ? "
            + "GROUP BY CAST(TS AS DATE)",
        ReleasedValue.cell("D", java.sql.Date.valueOf("2024-01-04"), "N"),
        BackendFault.BOUNDING_OFF, List.of(), List.of(
            java.sql.Timestamp.valueOf("2024-01-02 00:00:00"),
            java.sql.Timestamp.valueOf("2024-01-06 00:00:00")), null);
  }
}
