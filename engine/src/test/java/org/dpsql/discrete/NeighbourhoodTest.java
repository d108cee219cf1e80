package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class NeighbourhoodTest {

  @Test
  void oneSidedFactoriesAreMarkedNotSymmetric() {
    Neighbourhood sd = Neighbourhood.singleDistance(7, 3);
    assertArrayEquals(new int[] {3}, sd.toArray());
    assertFalse(sd.symmetric());
    Neighbourhood bd = Neighbourhood.boundedDifference(8, 3);
    assertArrayEquals(new int[] {1, 2, 3}, bd.toArray());
    assertFalse(bd.symmetric());
    // Even a self-negating one-sided set stays marked one-sided (reproduction only).
    assertFalse(Neighbourhood.singleDistance(7, 4).symmetric());
    assertTrue(Neighbourhood.singleDistance(7, 4).isClosedUnderNegation());
  }

  @Test
  void symmetricFactories() {
    assertArrayEquals(new int[] {3, 5}, Neighbourhood.symmetricSingleDistance(7, 3).toArray());
    assertArrayEquals(new int[] {1, 2, 8, 9}, Neighbourhood.symmetricBounded(9, 2).toArray());
    Neighbourhood count = Neighbourhood.addRemoveOne(8);
    assertArrayEquals(new int[] {1, 8}, count.toArray());
    assertTrue(count.symmetric());
    assertTrue(count.contains(-1));
    assertTrue(count.contains(10)); // 10 mod 9 = 1
    assertFalse(count.contains(0));
    assertFalse(count.contains(2));
    // symmetricBounded with k covering everything
    assertEquals(9, Neighbourhood.symmetricBounded(9, 9).differences().size());
  }

  @Test
  void ofClosesUnderNegationWhenAsked() {
    Neighbourhood plain = Neighbourhood.of(7, Set.of(3));
    assertFalse(plain.symmetric());
    Neighbourhood closed = Neighbourhood.of(7, Set.of(3), true);
    assertArrayEquals(new int[] {3, 5}, closed.toArray());
    assertTrue(closed.symmetric());
    assertEquals(closed, Neighbourhood.singleDistance(7, 3).symmetricClosure());
    // A set that is already closed is reported symmetric.
    assertTrue(Neighbourhood.of(7, Set.of(1, 7)).symmetric());
    assertEquals(Neighbourhood.of(6, Set.of(1, 3), true).differences(), new TreeSet<>(Set.of(1, 3, 4, 6)));
  }

  @Test
  void validation() {
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.singleDistance(0, 1));
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.addRemoveOne(100_001));
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.singleDistance(7, 0));
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.singleDistance(7, 8));
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.boundedDifference(7, 8));
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.of(7, Set.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Neighbourhood(7, new TreeSet<>(Set.of(3)), true)); // not closed
    assertThrows(IllegalArgumentException.class, () -> Neighbourhood.symmetricBounded(7, 0));
    Neighbourhood.addRemoveOne(100_000); // the largest n is accepted
  }

  @Test
  void differencesAreImmutable() {
    TreeSet<Integer> src = new TreeSet<>(Set.of(1, 2));
    Neighbourhood m = new Neighbourhood(5, src, false);
    src.add(3);
    assertEquals(2, m.differences().size());
    assertThrows(UnsupportedOperationException.class, () -> m.differences().add(4));
  }
}
