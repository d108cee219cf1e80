package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class AccountingTest {

  @Test
  void parsesTheThreeNamesCaseInsensitively() {
    assertEquals(Accounting.PURE, Accounting.parse("pure"));
    assertEquals(Accounting.PURE, Accounting.parse("PURE"));
    assertEquals(Accounting.APPROX, Accounting.parse("Approx"));
    assertEquals(Accounting.ZCDP, Accounting.parse("zCDP"));
    assertEquals(Accounting.ZCDP, Accounting.parse(" zcdp "));
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "rdp", "pure-dp", "approximate"})
  void rejectsAnythingElseListingTheChoices(String s) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Accounting.parse(s));
    assertTrue(e.getMessage().contains("pure"), e.getMessage());
    assertTrue(e.getMessage().contains("approx"), e.getMessage());
    assertTrue(e.getMessage().contains("zcdp"), e.getMessage());
  }

  @Test
  void policyNamesRoundTrip() {
    for (Accounting a : Accounting.values()) {
      assertEquals(a, Accounting.parse(a.policyName()));
    }
  }

  @Test
  void componentsUsed() {
    assertTrue(Accounting.PURE.usesEpsilon());
    assertFalse(Accounting.PURE.usesDelta());
    assertFalse(Accounting.PURE.usesRho());
    assertTrue(Accounting.APPROX.usesEpsilon());
    assertTrue(Accounting.APPROX.usesDelta());
    assertFalse(Accounting.APPROX.usesRho());
    assertFalse(Accounting.ZCDP.usesEpsilon());
    // the δ of approximately zCDP releases (private partition selection)
    assertTrue(Accounting.ZCDP.usesDelta());
    assertTrue(Accounting.ZCDP.usesRho());
  }
}
