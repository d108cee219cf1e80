package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.dpsql.sql.ReleaseRules.trips;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** {@link GroupKeyDomainRule}: a group key has a declared domain or private keys. */
class GroupKeyDomainRuleTest {

  @Test
  void listedValuesBinsAndPrivateKeysAreGroupKeys() throws SQLException {
    for (String name : new String[] {"STATE", "AGE", "CODE", "ZONE"}) {
      assertSame(column(name), GroupKeyDomainRule.check(column(name), trips()));
    }
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class,
        ReleaseRules.analyze("SELECT AGE, COUNT(*) FROM TRIPS GROUP BY AGE"));
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class,
        ReleaseRules.analyze("SELECT ZONE, COUNT(*) FROM TRIPS GROUP BY ZONE"));
  }

  @Test
  void aColumnWithoutDomainIsNotAGroupKey() {
    assertRefused("XDP02", () -> GroupKeyDomainRule.check(column("FARE"), trips()),
        "column FARE of TRIPS has no public domain in the policy", "keys: private");
    assertRefused("XDP02", "SELECT DISTANCE_KM, COUNT(*) FROM TRIPS GROUP BY DISTANCE_KM",
        "column DISTANCE_KM of TRIPS has no public domain");
    // also beside a public lookup column
    assertRefused("XDP02", "SELECT S.NAME, T.FARE, COUNT(*) FROM TRIPS T JOIN STATES S "
        + "ON T.STATE = S.CODE GROUP BY S.NAME, T.FARE", "column FARE of TRIPS has no public");
  }
}
