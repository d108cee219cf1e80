package org.dpsql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyModelTest {
  private static BigDecimal d(String s) {
    return new BigDecimal(s);
  }

  @Test
  void orderedDomainCellsAndEdges() {
    OrderedDomain age = new OrderedDomain(d("0"), d("99"), d("1"));
    assertEquals(100, age.cells());
    assertEquals(d("0"), age.lowerEdge(0));
    assertEquals(d("99"), age.lowerEdge(99));
    assertThrows(IndexOutOfBoundsException.class, () -> age.lowerEdge(100));
    assertThrows(IndexOutOfBoundsException.class, () -> age.lowerEdge(-1));

    OrderedDomain fare = new OrderedDomain(d("-1.5"), d("10"), d("2.5"));
    assertEquals(5, fare.cells()); // floor(11.5 / 2.5) + 1
    assertEquals(d("-1.5"), fare.lowerEdge(0));
    assertEquals(0, d("8.5").compareTo(fare.lowerEdge(4)));
    assertEquals(0, fare.cellOf(d("-1.5")));
    assertEquals(0, fare.cellOf(d("0.99")));
    assertEquals(1, fare.cellOf(d("1.0")));
    assertEquals(4, fare.cellOf(d("10")));
    assertEquals(-1, fare.cellOf(d("10.01")));
    assertEquals(-1, fare.cellOf(d("-2")));

    assertEquals(OrderedDomain.MAX_CELLS,
        new OrderedDomain(d("0"), d("9999999"), d("1")).cells());
    assertThrows(IllegalArgumentException.class,
        () -> new OrderedDomain(d("0"), d("10000000"), d("1")));
    assertThrows(IllegalArgumentException.class, () -> new OrderedDomain(d("1"), d("1"), d("1")));
    assertThrows(IllegalArgumentException.class, () -> new OrderedDomain(d("0"), d("1"), d("0")));
  }

  @Test
  void clampBounds() {
    Clamp c = new Clamp(d("-7"), d("3"));
    assertEquals(d("7"), c.maxAbs());
    assertEquals(d("10"), c.width());
    assertEquals(d("3"), c.apply(d("8")));
    assertEquals(d("-7"), c.apply(d("-9")));
    assertEquals(d("1.5"), c.apply(d("1.5")));
    assertThrows(IllegalArgumentException.class, () -> new Clamp(d("1"), d("0")));
  }

  @Test
  void budgetAmountInvariants() {
    BudgetAmount a = new BudgetAmount(d("1"), d("1e-6"), null);
    assertTrue(new BudgetAmount(d("0.5"), d("1e-7"), null).fitsWithin(a));
    assertFalse(new BudgetAmount(d("0.5"), d("1e-5"), null).fitsWithin(a));
    assertThrows(IllegalArgumentException.class, () -> new BudgetAmount(d("0"), null, null));
    assertThrows(IllegalArgumentException.class, () -> new BudgetAmount(null, d("1"), d("1")));
    assertThrows(IllegalArgumentException.class, () -> new BudgetAmount(null, null, null));
    assertThrows(IllegalArgumentException.class,
        () -> new BudgetPolicy("zcdp", new BudgetAmount(null, null, d("0.1")),
            new BudgetAmount(null, null, d("0.2"))));
    assertThrows(IllegalArgumentException.class,
        () -> new BudgetPolicy("renyi", a, a));
  }

  @Test
  void columnAndTableInvariants() {
    CategoricalDomain abc = new CategoricalDomain(new ArrayList<>(List.of("a", "b", "c")));
    assertThrows(UnsupportedOperationException.class, () -> abc.values().add("d"));
    assertThrows(IllegalArgumentException.class, () -> new CategoricalDomain(List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new CategoricalDomain(List.of(d("1"), d("1.00"))));
    OrderedDomain o = new OrderedDomain(d("0"), d("9"), d("1"));
    assertThrows(IllegalArgumentException.class, () -> new ColumnPolicy("X", Types.INTEGER,
        Optional.of(abc), Optional.of(o), Optional.empty()));
    assertThrows(IllegalArgumentException.class, () -> new ColumnPolicy("X", Types.INTEGER,
        Optional.empty(), Optional.empty(), Optional.empty()));

    ColumnPolicy kind = new ColumnPolicy("Kind", Types.VARCHAR, Optional.of(abc),
        Optional.empty(), Optional.empty());
    assertEquals(3, kind.domainSize());
    assertFalse(kind.isNumeric());
    TablePolicy t = new TablePolicy("Events", "S", false, true, null, 1, Map.of("KIND", kind),
        Map.of("H", List.of("Kind")));
    assertEquals(kind, t.column("kind").orElseThrow());
    assertEquals("S.Events", t.qualifiedName());
    assertThrows(IllegalArgumentException.class,
        () -> new TablePolicy("T", null, false, false, null, 1, Map.of(), Map.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new TablePolicy("T", null, false, true, null, 5, Map.of(), Map.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new TablePolicy("T", null, false, true, null, 1, Map.of(),
            Map.of("H", List.of("MISSING"))));
    TablePolicy pub = TablePolicy.publicTable("Z", null);
    assertTrue(pub.isPublic());
    assertNull(pub.privacyUnit());
    assertEquals("Z", pub.qualifiedName());
  }

  @Test
  void numericTypeFamily() {
    for (int type : new int[] {Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT,
        Types.REAL, Types.FLOAT, Types.DOUBLE, Types.NUMERIC, Types.DECIMAL}) {
      assertTrue(ColumnPolicy.isNumericType(type), String.valueOf(type));
    }
    assertFalse(ColumnPolicy.isNumericType(Types.VARCHAR));
    assertFalse(ColumnPolicy.isNumericType(Types.DATE));
    assertFalse(ColumnPolicy.isNumericType(Types.BOOLEAN));
  }

  @Test
  void typoSuggestions() {
    List<String> keys = PolicyParser.TABLE_KEYS;
    assertEquals("privacy_unit", PolicyProblems.nearest("privacy_units", keys));
    assertEquals("privacy_unit", PolicyProblems.nearest("Privacy_Unit", keys));
    assertEquals("max_rows_per_unit", PolicyProblems.nearest("max_row_per_unit", keys));
    assertEquals("columns", PolicyProblems.nearest("colums", keys));
    assertEquals("epsilon", PolicyProblems.nearest("eps", PolicyParser.AMOUNT_KEYS));
    assertEquals("budget", PolicyProblems.nearest("budgte", PolicyParser.TOP_KEYS));
    assertNull(PolicyProblems.nearest("colour", PolicyParser.TOP_KEYS));
    assertNull(PolicyProblems.nearest("xyz", keys));
    assertEquals(1, PolicyProblems.distance("ab", "ba"));
    assertEquals(3, PolicyProblems.distance("kitten", "sitting"));
  }
}
