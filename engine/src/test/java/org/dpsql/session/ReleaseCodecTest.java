package org.dpsql.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.spatial.FrequencyMatrix;
import org.dpsql.spatial.HtfMechanism;
import org.dpsql.spatial.HtfParameters;
import org.dpsql.spatial.HtfRelease;
import org.dpsql.spatial.SpatialSynopsis;
import org.junit.jupiter.api.Test;

/**
 * The stored form of released answers and HTF synopses: what is read back equals what was written
 * (values with their classes, the statement key, every node of a tree), and a damaged entry is
 * refused rather than half-read. (Least-squares and TopDown synopses are checked end to end by
 * {@code DurableReleasesTest}.)
 */
class ReleaseCodecTest {

  private static ResultTable table() {
    Timestamp t = new Timestamp(1_700_000_000_123L);
    t.setNanos(123_456_789);
    List<ResultColumn> cols = List.of(ResultColumn.varchar("K", true),
        ResultColumn.bigint("N", false), ResultColumn.doubles("V", true),
        ResultColumn.decimal("S", 2, true), ResultColumn.timestamp("T", true),
        ResultColumn.bool("B", true));
    List<Object[]> rows = List.of(
        new Object[] {"Zürich ✓", 12L, 3.25, new BigDecimal("-1234.50"), t, true},
        new Object[] {null, -7L, Double.NaN, null, null, null},
        new Object[] {"", 0L, -0.0, new BigDecimal("1E+30"), t, false});
    return new ResultTable(cols, rows);
  }

  @Test
  void anAnswerAndItsStatementReadBackEqual() throws IOException {
    List<Object> params = Arrays.asList(5, 7L, "x", new BigDecimal("2.50"), null, 1.5,
        new java.sql.Date(86_400_000L), BigInteger.TEN);
    Releases.AnswerKey key = new Releases.AnswerKey("SELECT ... WHERE A = ?", params);
    ResultTable t = table();
    ReleaseCodec.StoredAnswer back = ReleaseCodec.readAnswer(ReleaseCodec.answer(key, t));
    assertEquals(key, back.key(), "the same statement finds it");
    assertEquals(t.columns(), back.table().columns());
    assertEquals(t.rows().size(), back.table().rows().size());
    for (int r = 0; r < t.rows().size(); r++) {
      assertArrayEquals(t.rows().get(r), back.table().rows().get(r), "row " + r);
      for (int c = 0; c < t.rows().get(r).length; c++) {
        Object v = t.rows().get(r)[c];
        if (v != null) {
          assertEquals(v.getClass(), back.table().rows().get(r)[c].getClass());
        }
      }
    }
  }

  @Test
  void aDamagedEntryIsRefused() throws IOException {
    byte[] bytes = ReleaseCodec.answer(new Releases.AnswerKey("SELECT 1", List.of()), table());
    for (int i = 0; i < bytes.length; i += 7) {
      byte[] bad = bytes.clone();
      bad[i] ^= 0x01;
      assertThrows(IOException.class, () -> ReleaseCodec.readAnswer(bad), "flipped byte " + i);
    }
    for (int n : new int[] {0, 5, 15, bytes.length / 2, bytes.length - 1}) {
      byte[] cut = Arrays.copyOf(bytes, n);
      assertThrows(IOException.class, () -> ReleaseCodec.readAnswer(cut), "cut at " + n);
    }
    // an entry of another kind is not taken for an answer
    assertThrows(IOException.class, () -> ReleaseCodec.readSpatial(bytes));
  }

  @Test
  void anHtfSynopsisReadsBackNodeForNode() throws IOException {
    int rows = 32;
    int cols = 48;
    long[] counts = new long[rows * cols];
    SplittableRandom rnd = new SplittableRandom(11);
    for (int i = 0; i < counts.length; i++) {
      counts[i] = rnd.nextInt(4) == 0 ? rnd.nextInt(200) : 0;
    }
    HtfRelease release = new HtfMechanism(HtfParameters.paperDefaults(Rational.of(1)))
        .release(FrequencyMatrix.ofRowMajor(rows, cols, counts), new SeededRandomBits(3));
    SpatialExecutor.Released r = new SpatialExecutor.Released(release.synopsis(),
        release.budget().treeHeight(), Rational.of(1, 2));
    ReleaseCodec.StoredSpatial back = ReleaseCodec.readSpatial(ReleaseCodec.spatial("T/LOC", r));
    assertEquals("T/LOC", back.key());
    assertEquals(r.treeHeight(), back.released().treeHeight());
    assertEquals(r.epsilon(), back.released().epsilon());
    SpatialSynopsis a = r.synopsis();
    SpatialSynopsis b = back.released().synopsis();
    assertArrayEquals(a.bounds(), b.bounds());
    assertArrayEquals(a.childCounts(), b.childCounts());
    assertArrayEquals(a.estimates(), b.estimates());
    for (int q = 0; q < 200; q++) {
      double r0 = rnd.nextDouble(0, rows);
      double c0 = rnd.nextDouble(0, cols);
      double r1 = rnd.nextDouble(r0, rows);
      double c1 = rnd.nextDouble(c0, cols);
      assertEquals(a.answer(r0, r1, c0, c1), b.answer(r0, r1, c0, c1));
    }
  }

  @Test
  void aTreeThatIsNotATreeIsRefused() {
    int[] bounds = {0, 4, 0, 4, 0, 2, 0, 4, 2, 4, 0, 4};
    double[] est = {3, 1, 2};
    // node 1 pointing back at the root would loop forever
    assertThrows(IllegalArgumentException.class, () -> SpatialSynopsis.restore(bounds,
        new int[] {1, 0, 0}, new int[] {2, 1, 0}, est));
    // children past the end
    assertThrows(IllegalArgumentException.class, () -> SpatialSynopsis.restore(bounds,
        new int[] {2, 0, 0}, new int[] {2, 0, 0}, est));
    // an empty rectangle
    assertThrows(IllegalArgumentException.class, () -> SpatialSynopsis.restore(
        new int[] {0, 4, 0, 4, 2, 2, 0, 4, 2, 4, 0, 4}, new int[] {1, 0, 0},
        new int[] {2, 0, 0}, est));
    assertEquals(3.0, SpatialSynopsis.restore(bounds, new int[] {1, 0, 0},
        new int[] {2, 0, 0}, est).totalEstimate());
  }
}
