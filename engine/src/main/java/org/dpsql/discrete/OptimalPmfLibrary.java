package org.dpsql.discrete;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's source of optimal noise PMFs: designs a PMF for {@code (n, M, ε, δ, objective)} with
 * a closed form where one is valid (δ = 0, M = {1, n}, error-rate objective) and with the LP/MILP
 * designers otherwise (per-difference reading, the true PDP optimum), quantises it to the exact
 * PMF that will be sampled, and verifies that exact PMF with {@link PdpChecker} at (ε, δ). A PMF
 * that fails the check is never returned.
 *
 * <p>Designs are cached in memory and on disk (directory: system property {@code
 * dpsql.pmf.cache}, default {@code <java.io.tmpdir>/dpsql-pmf-cache}); a PMF read from disk is
 * verified again before use, so a damaged or tampered cache file can only cost a redesign.
 */
public final class OptimalPmfLibrary {
  private record Key(int n, SortedSet<Integer> differences, BigDecimal epsilon, BigDecimal delta,
      DesignObjective objective) {}

  private static final Map<Key, NoisePmf> MEMORY = new ConcurrentHashMap<>();

  private OptimalPmfLibrary() {}

  /** A verified PMF on [0..n] for the neighbourhood at (ε, δ). */
  public static NoisePmf design(Neighbourhood m, BigDecimal epsilon, BigDecimal delta,
      DesignObjective objective) {
    Key key = new Key(m.n(), m.differences(), epsilon.stripTrailingZeros(),
        delta.stripTrailingZeros(), objective);
    return MEMORY.computeIfAbsent(key, k -> {
      NoisePmf cached = readDisk(k, m);
      if (cached != null) {
        return cached;
      }
      NoisePmf designed = certified(m, epsilon, delta, objective);
      writeDisk(k, designed);
      return designed;
    });
  }

  /**
   * Designs and checks: the closed form for δ = 0 and the error-rate objective (the optimum for
   * any M, see {@link ClosedForms#deltaZeroOptimal}), the LP/MILP otherwise. The solver works in
   * doubles and the quantisation to the sampled integers moves masses slightly, so the design is
   * redone at a slightly smaller ε and δ until the exact checker accepts it at the requested ones.
   */
  static NoisePmf certified(Neighbourhood m, BigDecimal epsilon, BigDecimal delta,
      DesignObjective objective) {
    double eps = epsilon.doubleValue();
    double d = delta.doubleValue();
    if (d == 0 && objective == DesignObjective.ERROR_RATE) {
      try {
        NoisePmf pmf = ClosedForms.deltaZeroOptimalPmf(m, eps);
        PdpChecker.require(pmf, m, epsilon, delta);
        return pmf;
      } catch (IllegalStateException tooSmallMasses) {
        // the closed form's tail is below the sampling grid; the LP below finds a quantisable one
      }
    }
    return ClosedForms.certified(margin -> d == 0
        ? PmfDesigner.lp(m.n(), m.differences(), eps * (1 - margin), objective)
        : PmfDesigner.milp(m.n(), m.differences(), eps * (1 - margin), d * (1 - margin),
            objective, MilpReading.PER_DIFFERENCE), m, epsilon, delta);
  }

  /** Forgets the in-memory designs (tests of the disk cache). */
  static void clearMemory() {
    MEMORY.clear();
  }

  private static Path file(Key k) {
    try {
      String text = k.n() + "|" + k.differences() + "|" + k.epsilon().toPlainString() + "|"
          + k.delta().toPlainString() + "|" + k.objective();
      byte[] h = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      String dir = System.getProperty("dpsql.pmf.cache",
          Path.of(System.getProperty("java.io.tmpdir"), "dpsql-pmf-cache").toString());
      return Path.of(dir, HexFormat.of().formatHex(h, 0, 16) + ".pmf");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static NoisePmf readDisk(Key k, Neighbourhood m) {
    Path f = file(k);
    try {
      if (!Files.isRegularFile(f)) {
        return null;
      }
      List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
      long[] numerators = new long[m.n() + 1];
      for (int i = 0; i < numerators.length; i++) {
        numerators[i] = Long.parseLong(lines.get(i).trim());
      }
      NoisePmf pmf = NoisePmf.ofNumerators(numerators);
      return PdpChecker.satisfies(pmf, m, k.epsilon(), k.delta()) ? pmf : null;
    } catch (IOException | RuntimeException e) {
      return null; // unreadable or invalid: design again
    }
  }

  private static void writeDisk(Key k, NoisePmf pmf) {
    Path f = file(k);
    try {
      Files.createDirectories(f.getParent());
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i <= pmf.n(); i++) {
        sb.append(pmf.numerator(i)).append('\n');
      }
      Path tmp = Files.createTempFile(f.getParent(), "pmf", ".tmp");
      Files.writeString(tmp, sb, StandardCharsets.UTF_8);
      Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      // the disk cache is an optimisation only
    }
  }
}
