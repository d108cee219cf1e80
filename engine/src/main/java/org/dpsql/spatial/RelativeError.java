package org.dpsql.spatial;

import java.util.List;
import java.util.Objects;

/**
 * The accuracy metric of Shaham et al. (eq. 3 with the smoothing of Section 5.1): the relative
 * error of a query in percent, {@code 100 · |c − ĉ| / max(c, s)}, with smoothing factor {@code s}
 * (the paper uses 20) so that empty queries do not divide by zero.
 *
 * <p>Guarantee: a pure function of exact and estimated answers (evaluation only; it reads exact
 * counts and so must never be part of a release).
 */
public final class RelativeError {
  /** The paper's smoothing factor. */
  public static final double PAPER_SMOOTHING = 20;

  private RelativeError() {}

  /** {@code 100 · |exact − estimate| / max(exact, smoothing)}. */
  public static double of(long exact, double estimate, double smoothing) {
    if (!(smoothing > 0)) {
      throw new IllegalArgumentException("smoothing must be positive: " + smoothing);
    }
    return 100 * Math.abs(exact - estimate) / Math.max(exact, smoothing);
  }

  /** Mean relative error (MRE, percent) of {@code synopsis} over {@code queries}. */
  public static double mean(
      FrequencyMatrix f, SpatialSynopsis synopsis, List<GridRectangle> queries, double smoothing) {
    Objects.requireNonNull(queries, "queries");
    if (queries.isEmpty()) {
      throw new IllegalArgumentException("no queries");
    }
    double s = 0;
    for (GridRectangle q : queries) {
      s += of(f.count(q), synopsis.answer(q), smoothing);
    }
    return s / queries.size();
  }
}
