package org.dpsql.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.spatial.AdaptiveGrid;
import org.dpsql.spatial.FrequencyMatrix;
import org.dpsql.spatial.GaussianClusterData;
import org.dpsql.spatial.GridRectangle;
import org.dpsql.spatial.HtfMechanism;
import org.dpsql.spatial.HtfParameters;
import org.dpsql.spatial.HtfRelease;
import org.dpsql.spatial.Inference;
import org.dpsql.spatial.PrivateKdTree;
import org.dpsql.spatial.PrivateQuadtree;
import org.dpsql.spatial.RangeQueryWorkload;
import org.dpsql.spatial.RelativeError;
import org.dpsql.spatial.SpatialSynopsis;
import org.dpsql.spatial.UniformGrid;

/**
 * The accuracy experiment of Shaham et al. (HTF, Section 5) on synthetic data: a 1024 x 1024
 * frequency matrix of 3,500,000 points in Gaussian clusters (σ ∈ {20, 50, 100}, centres uniform,
 * see {@link GaussianClusterData}), 2,000 random queries per workload (squares covering 2%, 6%, 10%
 * of the domain, and random shape and size), mean relative error with smoothing 20, ε_tot ∈ {0.1,
 * 0.3, 0.5}. Methods: HTF at the paper's settings under three estimators of the same release
 * (paper: leaf re-measurement only; IV: inverse-variance combination at pruned leaves; LS:
 * hierarchical least squares over all measurements), HTF with split-budget reclaiming, UG and AG
 * (Qardaji et al.), the private kd-tree with HTF's height rule and the quadtree with half that
 * depth (Cormode et al.), plus both trees at their best height in hindsight (KD*: h in {8, 10, …,
 * 20}; QT*: d in {3, …, 8}; an oracle choice on the mean error over the evaluation queries
 * themselves, which can only flatter the baselines).
 *
 * <p>Every repetition draws a new dataset (new cluster centres) and new noise; noise comes from
 * {@link SeededRandomBits} so the run is reproducible (experiments only, never a real release).
 * Usage: {@code HtfExperiment [repetitions=5] [clusterCounts=1,10] [queries=2000] [points=3500000]}
 * (about 32 minutes on a shared 2-core machine).
 * Prints Markdown tables of the mean MRE (%) over the repetitions.
 */
public final class HtfExperiment {
  private static final int GRID = 1024;
  private static final double[] SIGMAS = {20, 50, 100};
  private static final String[] EPSILONS = {"0.1", "0.3", "0.5"};
  private static final String[] WORKLOADS = {"2%", "6%", "10%", "mixed"};
  private static final int[] KD_HEIGHTS = {8, 10, 12, 14, 16, 18, 20};
  private static final int[] QT_DEPTHS = {3, 4, 5, 6, 7, 8};
  private static final String[] METHODS = {
      "HTF", "HTF-IV", "HTF-LS", "HTF-R", "UG", "AG", "KD", "QT", "KD*", "QT*"};

  private HtfExperiment() {}

  public static void main(String[] args) {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    String[] clusterArg = (args.length > 1 ? args[1] : "1,10").split(",");
    int nq = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
    long points = args.length > 3 ? Long.parseLong(args[3]) : 3_500_000L;

    List<List<GridRectangle>> workloads = List.of(
        RangeQueryWorkload.squares(GRID, GRID, 0.02, nq, 101),
        RangeQueryWorkload.squares(GRID, GRID, 0.06, nq, 102),
        RangeQueryWorkload.squares(GRID, GRID, 0.10, nq, 103),
        RangeQueryWorkload.randomShapes(GRID, GRID, nq, 104));

    // results.get(key)[rep] with key = clusters|sigma|eps|workload|method
    Map<String, double[]> results = new TreeMap<>();
    Map<String, Integer> chosenHeight = new TreeMap<>();
    Map<String, double[]> buildSeconds = new LinkedHashMap<>();
    long start = System.nanoTime();
    for (String cs : clusterArg) {
      int clusters = Integer.parseInt(cs.trim());
      for (double sigma : SIGMAS) {
        for (int rep = 0; rep < reps; rep++) {
          long dataSeed = 1_000_003L * clusters + 1_009L * (long) sigma + rep;
          FrequencyMatrix f =
              new GaussianClusterData(GRID, GRID, clusters, points, sigma, dataSeed).frequencyMatrix();
          long[][] truth = new long[workloads.size()][];
          for (int w = 0; w < workloads.size(); w++) {
            truth[w] = new long[nq];
            for (int q = 0; q < nq; q++) {
              truth[w][q] = f.count(workloads.get(w).get(q));
            }
          }
          for (String e : EPSILONS) {
            Rational eps = Rational.parse(e);
            long noiseSeed = dataSeed * 31 + e.hashCode();
            Map<String, SpatialSynopsis> syn = new LinkedHashMap<>();
            long t0 = System.nanoTime();
            HtfRelease htf = new HtfMechanism(HtfParameters.paperDefaults(eps))
                .release(f, new SeededRandomBits(noiseSeed));
            time(buildSeconds, "HTF", t0);
            syn.put("HTF", htf.synopsis(Inference.LEAF_LAST_MEASUREMENT));
            syn.put("HTF-IV", htf.synopsis(Inference.LEAF_INVERSE_VARIANCE));
            syn.put("HTF-LS", htf.synopsis(Inference.LEAST_SQUARES));
            t0 = System.nanoTime();
            HtfRelease reclaim = new HtfMechanism(
                HtfParameters.paperDefaults(eps).withReclaimPartitionBudget(true))
                .release(f, new SeededRandomBits(noiseSeed + 1));
            time(buildSeconds, "HTF-R", t0);
            syn.put("HTF-R", reclaim.synopsis(Inference.LEAF_LAST_MEASUREMENT));
            t0 = System.nanoTime();
            syn.put("UG", UniformGrid.paperDefaults(eps).publish(f, new SeededRandomBits(noiseSeed + 2)));
            time(buildSeconds, "UG", t0);
            t0 = System.nanoTime();
            syn.put("AG", AdaptiveGrid.paperDefaults(eps).publish(f, new SeededRandomBits(noiseSeed + 3)));
            time(buildSeconds, "AG", t0);
            t0 = System.nanoTime();
            syn.put("KD", PrivateKdTree.paperDefaults(eps).publish(f, new SeededRandomBits(noiseSeed + 4)));
            time(buildSeconds, "KD", t0);
            t0 = System.nanoTime();
            syn.put("QT", PrivateQuadtree.paperDefaults(eps).publish(f, new SeededRandomBits(noiseSeed + 5)));
            time(buildSeconds, "QT", t0);
            for (int h : KD_HEIGHTS) {
              syn.put("KD@" + h, PrivateKdTree.paperDefaults(eps).withHeight(h)
                  .publish(f, new SeededRandomBits(noiseSeed + 10 + h)));
            }
            for (int d : QT_DEPTHS) {
              syn.put("QT@" + d, PrivateQuadtree.paperDefaults(eps).withDepth(d)
                  .publish(f, new SeededRandomBits(noiseSeed + 30 + d)));
            }
            for (int w = 0; w < workloads.size(); w++) {
              for (Map.Entry<String, SpatialSynopsis> m : syn.entrySet()) {
                double mre = 0;
                List<GridRectangle> qs = workloads.get(w);
                for (int q = 0; q < nq; q++) {
                  mre += RelativeError.of(truth[w][q], m.getValue().answer(qs.get(q)),
                      RelativeError.PAPER_SMOOTHING);
                }
                results.computeIfAbsent(key(clusters, sigma, e, WORKLOADS[w], m.getKey()),
                    k -> new double[reps])[rep] = mre / nq;
              }
            }
            System.err.printf(Locale.ROOT, "[%6.0fs] clusters=%d sigma=%.0f rep=%d eps=%s done%n",
                (System.nanoTime() - start) / 1e9, clusters, sigma, rep, e);
          }
        }
        // oracle heights for the baselines, chosen on the mean over repetitions
        for (String e : EPSILONS) {
          for (String w : WORKLOADS) {
            pickBest(results, chosenHeight, clusters, sigma, e, w, "KD", KD_HEIGHTS);
            pickBest(results, chosenHeight, clusters, sigma, e, w, "QT", QT_DEPTHS);
          }
        }
      }
      print(results, chosenHeight, clusters, reps, nq, points);
    }
    System.out.println();
    System.out.println("Mean build time per release (s, seeded bits, shared 2-core machine):");
    for (Map.Entry<String, double[]> b : buildSeconds.entrySet()) {
      System.out.printf(Locale.ROOT, "- %s: %.2f s over %d builds%n", b.getKey(),
          b.getValue()[0] / b.getValue()[1], (long) b.getValue()[1]);
    }
    System.out.printf(Locale.ROOT, "Total wall time %.0f s%n", (System.nanoTime() - start) / 1e9);
  }

  private static void time(Map<String, double[]> acc, String name, long t0) {
    double[] a = acc.computeIfAbsent(name, k -> new double[2]);
    a[0] += (System.nanoTime() - t0) / 1e9;
    a[1]++;
  }

  private static String key(int clusters, double sigma, String e, String w, String m) {
    return clusters + "|" + (int) sigma + "|" + e + "|" + w + "|" + m;
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  private static void pickBest(Map<String, double[]> results, Map<String, Integer> chosen,
      int clusters, double sigma, String e, String w, String family, int[] heights) {
    int best = -1;
    double bestMre = Double.POSITIVE_INFINITY;
    for (int h : heights) {
      double m = mean(results.get(key(clusters, sigma, e, w, family + "@" + h)));
      if (m < bestMre) {
        bestMre = m;
        best = h;
      }
    }
    results.put(key(clusters, sigma, e, w, family + "*"),
        results.get(key(clusters, sigma, e, w, family + "@" + best)));
    chosen.put(key(clusters, sigma, e, w, family + "*"), best);
  }

  private static void print(Map<String, double[]> results, Map<String, Integer> chosen,
      int clusters, int reps, int nq, long points) {
    System.out.println();
    System.out.printf(Locale.ROOT,
        "### %d cluster%s, %,d points, 1024 x 1024, %d queries per workload, mean MRE %% over %d repetitions%n",
        clusters, clusters == 1 ? "" : "s", points, nq, reps);
    for (String w : WORKLOADS) {
      System.out.println();
      System.out.println("Workload: " + (w.equals("mixed") ? "random shape and size" : "squares covering " + w));
      System.out.println();
      StringBuilder head = new StringBuilder("| σ | ε |");
      StringBuilder rule = new StringBuilder("|---|---|");
      for (String m : METHODS) {
        head.append(' ').append(m).append(" |");
        rule.append("---|");
      }
      head.append(" HTF best of all? |");
      rule.append("---|");
      System.out.println(head);
      System.out.println(rule);
      for (double sigma : SIGMAS) {
        for (String e : EPSILONS) {
          StringBuilder row = new StringBuilder("| " + (int) sigma + " | " + e + " |");
          double htf = mean(results.get(key(clusters, sigma, e, w, "HTF")));
          double bestBaseline = Double.POSITIVE_INFINITY;
          for (String m : METHODS) {
            String k = key(clusters, sigma, e, w, m);
            double v = mean(results.get(k));
            row.append(String.format(Locale.ROOT, " %.2f", v));
            if (chosen.containsKey(k)) {
              row.append(" (").append(m.startsWith("KD") ? "h=" : "d=").append(chosen.get(k)).append(')');
            }
            row.append(" |");
            if (!m.startsWith("HTF")) {
              bestBaseline = Math.min(bestBaseline, v);
            }
          }
          row.append(htf < bestBaseline ? " yes" : String.format(Locale.ROOT, " no (%.2fx)", htf / bestBaseline));
          row.append(" |");
          System.out.println(row);
        }
      }
    }
    System.out.println();
    System.out.println("Spread over the repetitions (random shape and size): min – max of the per-repetition MRE %");
    System.out.println();
    System.out.println("| σ | ε | HTF | HTF-LS | AG | QT |");
    System.out.println("|---|---|---|---|---|---|");
    for (double sigma : SIGMAS) {
      for (String e : EPSILONS) {
        StringBuilder row = new StringBuilder("| " + (int) sigma + " | " + e + " |");
        for (String m : new String[] {"HTF", "HTF-LS", "AG", "QT"}) {
          double[] v = results.get(key(clusters, sigma, e, "mixed", m));
          double lo = Double.POSITIVE_INFINITY;
          double hi = Double.NEGATIVE_INFINITY;
          for (double x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
          }
          row.append(String.format(Locale.ROOT, " %.2f – %.2f |", lo, hi));
        }
        System.out.println(row);
      }
    }
  }
}
