package org.dpsql.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.dpsql.session.ReleaseStore;
import org.junit.jupiter.api.Test;

/**
 * The release rows of the ledger: saved in order, read back per analyst and policy fingerprint,
 * and numbered without loss when two stores (two server processes) share one database.
 */
class AnalystReleasesTest {

  private static ReleaseStore.Entry entry(String text) {
    return new ReleaseStore.Entry("answer", text, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void twoStoresOnOneDatabaseInterleaveWithoutLosingARow() throws Exception {
    String url = "jdbc:h2:mem:r" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    try (LedgerStore one = LedgerStore.open(url, null);
        LedgerStore two = LedgerStore.open(url, null)) {
      AnalystReleases a = one.releases("ann");
      assertSame(a, one.releases("ann"));
      AnalystReleases b = two.releases("ann");
      for (int i = 0; i < 20; i++) {
        // each store's cached next number is taken by the other's previous row: retried
        a.save("fp1", entry("a" + i));
        b.save("fp1", entry("b" + i));
      }
      one.releases("bob").save("fp1", entry("bob"));
      a.save("fp2", entry("other policy"));
      List<ReleaseStore.Entry> read = two.releases("ann").load("fp1");
      assertEquals(40, read.size());
      for (int i = 0; i < 20; i++) {
        assertEquals("a" + i, read.get(2 * i).key());
        assertEquals("b" + i, read.get(2 * i + 1).key());
        assertArrayEquals(("b" + i).getBytes(StandardCharsets.UTF_8),
            read.get(2 * i + 1).payload());
      }
      assertEquals(List.of("other policy"),
          a.load("fp2").stream().map(ReleaseStore.Entry::key).toList());
      assertEquals(1, one.releases("bob").load("fp1").size());
    }
  }
}
