package org.dpsql.spatial;

import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * A differentially private spatial histogram mechanism: publishes a {@link SpatialSynopsis} of a
 * frequency matrix, from which any number of rectangle queries are then answered for free.
 *
 * <p>Guarantee (of every implementation): {@link #publish} is {@link #epsilon()}-differentially
 * private (pure) under add/remove of one record, with noise drawn only by the exact samplers of
 * {@code org.dpsql.mechanism} from the given bits.
 */
public interface SpatialMechanism {

  /** A short name for reports, e.g. {@code "HTF"}, {@code "UG"}. */
  String name();

  /** The total budget one publication spends. */
  Rational epsilon();

  /** Publishes a synopsis of {@code f}. */
  SpatialSynopsis publish(FrequencyMatrix f, RandomBits bits);
}
