package org.dpsql.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParser;
import org.dpsql.policy.CategoricalDomain;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Property test of {@link ReleasedCells} (issue 32): over random filters (comparisons, {@code IN},
 * {@code BETWEEN}, {@code AND}/{@code OR}/{@code NOT}, literals and parameters) on one and two
 * declared columns, the released cells are exactly the cells on which the filter can be true,
 * checked against H2 evaluating the filter on every value every cell can hold (its own SQL
 * semantics, NULL logic included). The columns: {@code S} categorical (4 values), {@code H} an
 * hour (0..23, bins of 1) and {@code A} an age (16..90, bins of 10: several values per cell). A
 * filter that also names a column outside the cells ({@code B}) must keep a superset (soundness).
 */
class ReleasedCellsPropertyTest {
  static final List<Object> STATES = List.of("NY", "CA", "TX", "IL");
  static final ColumnPolicy S = new ColumnPolicy("S", Types.VARCHAR,
      Optional.of(new CategoricalDomain(STATES)), Optional.empty(), Optional.empty());
  static final ColumnPolicy H = new ColumnPolicy("H", Types.INTEGER, Optional.empty(),
      Optional.of(new OrderedDomain(BigDecimal.ZERO, new BigDecimal(23), BigDecimal.ONE)),
      Optional.empty());
  static final ColumnPolicy A = new ColumnPolicy("A", Types.INTEGER, Optional.empty(),
      Optional.of(new OrderedDomain(new BigDecimal(16), new BigDecimal(90), BigDecimal.TEN)),
      Optional.empty());
  static final List<ColumnPolicy> COLUMNS = List.of(S, H, A);

  static Connection h2;

  @BeforeAll
  static void everyValueEveryCellCanHold() throws Exception {
    h2 = DriverManager.getConnection("jdbc:h2:mem:");
    try (Statement st = h2.createStatement()) {
      // every combination of in-domain values; in VB also B (a column without a domain)
      st.execute("CREATE TABLE V (S VARCHAR(2), H INT, A INT)");
      st.execute("INSERT INTO V SELECT s.X, h.X, a.X FROM (VALUES ('NY'), ('CA'), ('TX'), "
          + "('IL')) s(X), SYSTEM_RANGE(0, 23) h, SYSTEM_RANGE(16, 90) a");
      st.execute("CREATE TABLE VB AS SELECT V.*, b.X AS B FROM V, SYSTEM_RANGE(-3, 3) b");
    }
  }

  @AfterAll
  static void close() throws Exception {
    h2.close();
  }

  @Test
  void releasedCellsAreExactlyTheCellsWhereTheFilterCanBeTrue() throws Exception {
    SplittableRandom rnd = new SplittableRandom(32);
    int decided = 0;
    for (int trial = 0; trial < 400; trial++) {
      List<ColumnPolicy> grouped = groupColumns(rnd);
      List<Object> params = new ArrayList<>();
      String filter = filter(rnd, grouped, params, 3, false);
      TreeSet<Integer> truth = truth(grouped, filter, params);
      ReleasedCells released = ReleasedCells.of(where(filter), new CellDomain(grouped), params,
          List.of());
      assertEquals(truth, releasedSet(released), "WHERE " + filter + " " + params + " grouped by "
          + grouped.stream().map(ColumnPolicy::name).toList());
      decided += released.excluded() > 0 ? 1 : 0;
    }
    assertTrue(decided > 150, "most filters exclude some cell: " + decided);
  }

  @Test
  void aConditionOnAColumnOutsideTheCellsNeverExcludesACellThatMayHoldRows() throws Exception {
    SplittableRandom rnd = new SplittableRandom(33);
    for (int trial = 0; trial < 150; trial++) {
      List<ColumnPolicy> grouped = groupColumns(rnd);
      List<Object> params = new ArrayList<>();
      String filter = filter(rnd, grouped, params, 3, true);
      TreeSet<Integer> truth = truth(grouped, filter.replace("B ", "VB.B "), params);
      TreeSet<Integer> released = releasedSet(ReleasedCells.of(where(filter),
          new CellDomain(grouped), params, List.of()));
      assertTrue(released.containsAll(truth), "WHERE " + filter + " keeps " + released
          + ", the filter can be true in " + truth);
    }
  }

  @Test
  void whatCannotBeDecidedKeepsTheCell() throws Exception {
    CellDomain cells = new CellDomain(List.of(S, H));
    // text compared in another case: a case-insensitive collation would match it
    assertEquals(24, ReleasedCells.of(where("S = 'ny'"), cells, List.of(), List.of()).count());
    // arithmetic, an unset parameter, a comparison of two columns: not decided, every cell kept
    assertEquals(96, ReleasedCells.of(where("H * 2 = 14"), cells, List.of(), List.of()).count());
    assertEquals(96, ReleasedCells.of(where("H = ?"), cells, List.of(), List.of()).count());
    assertEquals(96, ReleasedCells.of(where("H = A"), cells, List.of(), List.of()).count());
    // ...but a decided part still excludes: the OR keeps NY's cells only
    assertEquals(24, ReleasedCells.of(where("S = 'NY' AND (H * 2 = 14 OR B > 1)"), cells,
        List.of(), List.of()).count());
    // NOT of an undecided part is undecided, not true
    assertEquals(96, ReleasedCells.of(where("NOT (H * 2 = 14)"), cells, List.of(), List.of())
        .count());
    // a cell never holds NULL in its own columns
    assertEquals(0, ReleasedCells.of(where("S IS NULL"), cells, List.of(), List.of()).count());
    // no GROUP BY: the one row stays, as in SQL
    assertEquals(1, ReleasedCells.of(where("H > 99"), new CellDomain(List.of()), List.of(),
        List.of()).count());
  }

  @Test
  void aDecimalColumnsBinsAreKeptWhereTheBackendsRoundingMightPutAValue() throws Exception {
    ColumnPolicy km = new ColumnPolicy("KM", Types.DOUBLE, Optional.empty(),
        Optional.of(new OrderedDomain(BigDecimal.ZERO, BigDecimal.TEN, new BigDecimal("0.1"))),
        Optional.empty());
    CellDomain cells = new CellDomain(List.of(km));
    // bins [0, 0.1) ... [2.9, 3.0): the bin [3.0, 3.1) is kept too (its lower edge, rounded to
    // a double, may be just below 3.0), and nothing above
    ReleasedCells r = ReleasedCells.of(where("KM < 3.0"), cells, List.of(), List.of());
    assertEquals(31, r.count());
    assertTrue(r.released(30) && !r.released(31));
  }

  // ------------------------------------------------------------------------------------------

  private static List<ColumnPolicy> groupColumns(SplittableRandom rnd) {
    List<ColumnPolicy> cols = new ArrayList<>(COLUMNS);
    ColumnPolicy first = cols.remove(rnd.nextInt(cols.size()));
    if (rnd.nextBoolean()) {
      return List.of(first);
    }
    ColumnPolicy second = cols.get(rnd.nextInt(cols.size()));
    // in policy order, as the engine builds cells
    return COLUMNS.indexOf(first) < COLUMNS.indexOf(second) ? List.of(first, second)
        : List.of(second, first);
  }

  /** A random filter over {@code cols} (and B when {@code outside}), depth at most {@code d}. */
  private static String filter(SplittableRandom rnd, List<ColumnPolicy> cols, List<Object> params,
      int d, boolean outside) {
    int r = rnd.nextInt(10);
    if (d > 0 && r < 2) {
      return "NOT (" + filter(rnd, cols, params, d - 1, outside) + ")";
    }
    if (d > 0 && r < 6) {
      return "(" + filter(rnd, cols, params, d - 1, outside) + (r < 4 ? " AND " : " OR ")
          + filter(rnd, cols, params, d - 1, outside) + ")";
    }
    if (outside && rnd.nextInt(3) == 0) {
      return "B " + op(rnd) + " " + rnd.nextInt(-4, 5);
    }
    ColumnPolicy c = cols.get(rnd.nextInt(cols.size()));
    if (c == S) {
      return switch (rnd.nextInt(3)) {
        case 0 -> "S " + (rnd.nextBoolean() ? "=" : "<>") + " " + text(rnd);
        case 1 -> "S " + (rnd.nextBoolean() ? "IN" : "NOT IN") + " (" + text(rnd) + ", "
            + text(rnd) + ")";
        default -> "S IN (" + text(rnd) + ")";
      };
    }
    String name = c.name();
    return switch (rnd.nextInt(5)) {
      case 0, 1 -> name + " " + op(rnd) + " " + number(rnd, c, params);
      case 2 -> number(rnd, c, params) + " " + op(rnd) + " " + name;
      case 3 -> name + (rnd.nextBoolean() ? " BETWEEN " : " NOT BETWEEN ") + number(rnd, c, params)
          + " AND " + number(rnd, c, params);
      default -> name + (rnd.nextBoolean() ? " IN (" : " NOT IN (") + number(rnd, c, params)
          + ", " + number(rnd, c, params) + ", " + number(rnd, c, params) + ")";
    };
  }

  private static String op(SplittableRandom rnd) {
    return List.of("=", "<>", "<", "<=", ">", ">=").get(rnd.nextInt(6));
  }

  private static String text(SplittableRandom rnd) {
    int i = rnd.nextInt(STATES.size() + 1);
    return "'" + (i == STATES.size() ? "ZZ" : STATES.get(i)) + "'";
  }

  /** A number near the column's domain: an integer, sometimes x.5, sometimes a parameter. */
  private static String number(SplittableRandom rnd, ColumnPolicy c, List<Object> params) {
    BigDecimal v = c == H ? BigDecimal.valueOf(rnd.nextInt(-2, 27))
        : BigDecimal.valueOf(rnd.nextInt(12, 95));
    if (rnd.nextInt(6) == 0) {
      v = v.add(new BigDecimal("0.5"));
    }
    if (rnd.nextInt(5) == 0) {
      params.add(v.scale() == 0 ? (Object) v.intValueExact() : (Object) v.doubleValue());
      return "?";
    }
    return v.toPlainString();
  }

  private static SqlNode where(String filter) throws Exception {
    SqlSelect s = (SqlSelect) SqlParser.create("SELECT * FROM V WHERE " + filter).parseQuery();
    return s.getWhere();
  }

  /** The cells on which H2 finds a value that satisfies the filter. */
  private static TreeSet<Integer> truth(List<ColumnPolicy> grouped, String filter,
      List<Object> params) throws Exception {
    String keys = String.join(", ", grouped.stream().map(ColumnPolicy::name).toList());
    TreeSet<Integer> out = new TreeSet<>();
    try (PreparedStatement ps = h2.prepareStatement("SELECT DISTINCT " + keys + " FROM "
        + (filter.contains("VB.B") ? "VB" : "V") + " WHERE " + filter)) {
      for (int i = 0; i < params.size(); i++) {
        ps.setObject(i + 1, params.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int cell = 0;
          for (int i = 0; i < grouped.size(); i++) {
            ColumnPolicy c = grouped.get(i);
            int v = c == S ? STATES.indexOf(rs.getString(i + 1))
                : c.ordered().orElseThrow().cellOf(BigDecimal.valueOf(rs.getInt(i + 1)));
            cell = cell * c.domainSize() + v;
          }
          out.add(cell);
        }
      }
    }
    return out;
  }

  private static TreeSet<Integer> releasedSet(ReleasedCells r) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int c = 0; c < r.size(); c++) {
      if (r.released(c)) {
        out.add(c);
      }
    }
    return out;
  }
}
