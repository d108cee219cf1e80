package org.dpsql.adaptive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.dpsql.mechanism.RandomBits;

/**
 * SafeTab-P (Haney et al., Algorithms 1–3): for each population group level i and each declared
 * group P of it, TabulatePopulationGroup with budget b = ρ_i/s_i and fraction γ:
 *
 * <ul>
 *   <li>P's iteration is TotalOnly at the level: one noisy total with budget b;
 *   <li>otherwise a noisy total with budget γb (step 1, used only to choose the detail level, not
 *       released), then with budget (1−γ)b per count (step 2): the total if step 1 &lt; θ1, else
 *       Sex × the coarse / medium / fine age binning if step 1 &lt; θ2 / &lt; θ3 / ≥ θ3.
 * </ul>
 *
 * Noise is drawn only by {@link NoisyCount} (the exact samplers). The input per group is its exact
 * total and Sex × finest-Age counts ({@link LevelCounts}); raw rows are never seen.
 *
 * <p>Guarantees: if every person contributes to at most s_i groups of level i (enforced upstream by
 * {@link StabilityTruncation}; the counts cannot reveal a violation), then tabulating level i is
 * ε_i-DP for {@link BaseMechanism#GEOMETRIC} and ρ_i-zCDP for {@link
 * BaseMechanism#DISCRETE_GAUSSIAN}, with ε_i = ρ_i = the level's budget (Theorems 1, 3: the step-2
 * cells of a group are disjoint, degree-1 parallel composition; steps 1 and 2 compose adaptively;
 * groups compose by generalized parallel composition with degree s_i); levels add up to {@link
 * AdaptiveTabulationSpec#totalCost()}. Every declared group is tabulated, empty or not, in the
 * declared order (geography-major), so the set and order of rows depend on the data only through
 * the noisy step-1 totals. Outputs are integral, possibly negative and <strong>not
 * consistent</strong> with each other (no post-processing is applied). Each row carries its exact
 * 95% margin of error ({@link NoisyCount#marginOfError95()}). Stateless apart from the {@link
 * RandomBits}; thread-safe if it is.
 */
public final class AdaptiveTabulation {

  /**
   * What a level's tabulation produced.
   *
   * @param level the level name
   * @param groupsByDetail how many groups were released at each detail level
   * @param rows the number of rows released
   */
  public record LevelSummary(String level, Map<DetailLevel, Long> groupsByDetail, long rows) {}

  private final AdaptiveTabulationSpec spec;

  /** A tabulation following {@code spec}. */
  public AdaptiveTabulation(AdaptiveTabulationSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  /** The spec. */
  public AdaptiveTabulationSpec spec() {
    return spec;
  }

  /**
   * Tabulates one level (Algorithm 1, lines 7–12) and returns its rows.
   *
   * @param levelName a level of the spec
   * @param counts the exact counts of the level's groups
   * @param bits the randomness for the noise ({@code SecureRandomBits} in production)
   * @throws IllegalArgumentException if the level is unknown or a group's counts have the wrong
   *     number of cells
   */
  public List<TabulatedCount> tabulateLevel(String levelName, LevelCounts counts, RandomBits bits) {
    List<TabulatedCount> rows = new ArrayList<>();
    tabulateLevel(levelName, counts, bits, rows::add);
    return Collections.unmodifiableList(rows);
  }

  /**
   * Tabulates every level in the spec's order; {@code countsByLevel} must hold each level's counts.
   *
   * @throws IllegalArgumentException if a level's counts are missing
   */
  public List<TabulatedCount> tabulate(Map<String, LevelCounts> countsByLevel, RandomBits bits) {
    Objects.requireNonNull(countsByLevel, "countsByLevel");
    List<TabulatedCount> rows = new ArrayList<>();
    for (PopulationLevel l : spec.levels()) {
      LevelCounts c = countsByLevel.get(l.name());
      if (c == null) {
        throw new IllegalArgumentException(
            "no exact counts given for population level " + l.name());
      }
      tabulateLevel(l.name(), c, bits, rows::add);
    }
    return Collections.unmodifiableList(rows);
  }

  /**
   * Tabulates one level, streaming its rows to {@code sink} (for levels with very many groups).
   *
   * @return what was released
   */
  public LevelSummary tabulateLevel(
      String levelName, LevelCounts counts, RandomBits bits, Consumer<TabulatedCount> sink) {
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(bits, "bits");
    Objects.requireNonNull(sink, "sink");
    PopulationLevel level = spec.level(levelName);
    NoisyCount whole = new NoisyCount(spec.mechanism(), AdaptiveTabulationSpec.groupBudget(level));
    NoisyCount stepOne = new NoisyCount(spec.mechanism(), spec.stepOneBudget(level));
    NoisyCount stepTwo = new NoisyCount(spec.mechanism(), spec.stepTwoBudget(level));
    int cellCount = spec.cellCount();
    int maxBins = 0;
    for (AgeBinning b : spec.ageBinnings()) {
      maxBins = Math.max(maxBins, b.binCount());
    }
    long[] binned = new long[spec.sexes().size() * maxBins];
    EnumMap<DetailLevel, Long> histogram = new EnumMap<>(DetailLevel.class);
    long rows = 0;
    int geographies = level.geographies().size();
    int iterations = level.iterations().size();
    for (int g = 0; g < geographies; g++) {
      for (int c = 0; c < iterations; c++) {
        GroupCounts gc = counts.counts(g, c);
        long total;
        if (gc == null) {
          total = 0;
        } else {
          if (gc.cellCount() != cellCount) {
            throw new IllegalArgumentException(
                "group "
                    + level.group(g, c)
                    + " has "
                    + gc.cellCount()
                    + " Sex x Age cells, the spec declares "
                    + cellCount);
          }
          total = gc.total();
        }
        PopulationGroup group = level.group(g, c);
        DetailLevel detail;
        if (level.isTotalOnly(c)) {
          detail = DetailLevel.TOTAL_ONLY;
          sink.accept(
              new TabulatedCount(
                  group, detail, null, null, whole.release(total, bits), whole.marginOfError95()));
          rows++;
        } else {
          long noisyTotal = stepOne.release(total, bits);
          detail =
              DetailLevel.forNoisyTotal(noisyTotal, spec.theta1(), spec.theta2(), spec.theta3());
          if (!detail.isSexByAge()) {
            sink.accept(
                new TabulatedCount(
                    group,
                    detail,
                    null,
                    null,
                    stepTwo.release(total, bits),
                    stepTwo.marginOfError95()));
            rows++;
          } else {
            AgeBinning binning = spec.ageBinnings().get(detail.binningIndex());
            int bins = binning.binCount();
            int sexes = spec.sexes().size();
            int ages = spec.finestAgeCount();
            Arrays.fill(binned, 0, sexes * bins, 0L);
            if (gc != null) {
              for (int s = 0; s < sexes; s++) {
                for (int a = 0; a < ages; a++) {
                  binned[s * bins + binning.binOf(a)] += gc.cell(s * ages + a);
                }
              }
            }
            for (int s = 0; s < sexes; s++) {
              for (int b = 0; b < bins; b++) {
                sink.accept(
                    new TabulatedCount(
                        group,
                        detail,
                        spec.sexes().get(s),
                        binning.labels().get(b),
                        stepTwo.release(binned[s * bins + b], bits),
                        stepTwo.marginOfError95()));
                rows++;
              }
            }
          }
        }
        histogram.merge(detail, 1L, Long::sum);
      }
    }
    return new LevelSummary(level.name(), Collections.unmodifiableMap(histogram), rows);
  }
}
