package org.dpsql.matrix.mechanism;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.KroneckerStrategy;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * A cache of prepared matrix mechanisms (lattice strategy plus its least-squares factorisation),
 * keyed by a workload signature: strategies are data-independent, so a workload answered again
 * reuses its strategy. Two levels: memory (the whole {@link MatrixMechanism}, so a hit costs a map
 * look-up and answering needs no refactorisation) and disk (the real strategy matrix as binary
 * doubles, {@code <dir>/<sha256(key)>.strategy}), so a restart skips the strategy design.
 *
 * <p>Guarantees: a file is written to a temporary file in the same directory and atomically moved
 * into place; it carries a magic number, a format version, the full key and a CRC-32 of its
 * contents, and a file that is truncated, corrupt or made for another key is ignored (and
 * overwritten by the recomputed strategy). A wrong or stale cache entry can never weaken privacy:
 * the sensitivity and the noise are always derived from the exact lattice matrix actually measured
 * ({@link LatticeStrategy}); at worst accuracy would suffer. Thread-safe.
 */
public final class StrategyCache {
  private static final long MAGIC = 0x4450_5351_4c53_5452L; // "DPSQLSTR"
  private static final int VERSION = 1;

  private final Path directory;
  private final int bits;
  private final ConcurrentHashMap<String, FutureTask<MatrixMechanism>> memory = new ConcurrentHashMap<>();
  private final AtomicLong memoryHits = new AtomicLong();
  private final AtomicLong diskHits = new AtomicLong();
  private final AtomicLong designs = new AtomicLong();

  /**
   * A cache storing files under {@code directory} (created on demand; {@code null} for memory only)
   * and rounding strategies with {@code bits} lattice bits per factor.
   */
  public StrategyCache(Path directory, int bits) {
    if (bits < 0 || bits > 62) {
      throw new IllegalArgumentException("lattice bits must be in [0, 62]: " + bits);
    }
    this.directory = directory;
    this.bits = bits;
  }

  /** The default on-disk cache, {@code ${java.io.tmpdir}/dpsql-strategy-cache}, 20 lattice bits. */
  public static StrategyCache defaultCache() {
    return new StrategyCache(
        Path.of(System.getProperty("java.io.tmpdir"), "dpsql-strategy-cache"), LatticeStrategy.DEFAULT_BITS);
  }

  /**
   * The prepared mechanism for {@code signature}: from memory, else from disk, else from {@code
   * designer} (whose strategy is then stored on disk). The factorisation is computed once and kept in
   * memory.
   */
  public MatrixMechanism get(String signature, Supplier<? extends Strategy> designer) {
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(designer, "designer");
    String key = signature + "|bits=" + bits;
    FutureTask<MatrixMechanism> task = memory.get(key);
    if (task != null) {
      memoryHits.incrementAndGet();
    } else {
      // Prepare outside any map lock; concurrent callers for the same key wait for one preparation.
      FutureTask<MatrixMechanism> mine = new FutureTask<>(() -> prepare(key, designer));
      task = memory.putIfAbsent(key, mine);
      if (task == null) {
        task = mine;
        mine.run();
      } else {
        memoryHits.incrementAndGet();
      }
    }
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while preparing strategy " + signature, e);
    } catch (ExecutionException e) {
      memory.remove(key, task); // do not cache failures
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("preparing strategy " + signature + " failed", cause);
    }
  }

  private MatrixMechanism prepare(String key, Supplier<? extends Strategy> designer) {
    Strategy s = directory == null ? null : read(key);
    if (s != null) {
      diskHits.incrementAndGet();
    } else {
      designs.incrementAndGet();
      s = Objects.requireNonNull(designer.get(), "designer returned null");
      if (directory != null && s.kroneckerFactors().stream()
          .noneMatch(f -> f instanceof org.dpsql.matrix.design.TransformStrategy
              || f instanceof org.dpsql.matrix.DirectStrategy
              || f instanceof org.dpsql.matrix.IdentityStrategy)) {
        // a closed-form design is redesigned in O(n log n), the workload's own rows in O(nnz) and
        // the identity in O(n): none is stored as a dense matrix (an identity over 4,000 cells
        // would be a 128 MB file per workload, read back as a dense n × n strategy)
        write(key, s);
      }
    }
    LatticeStrategy lattice = LatticeStrategy.round(s, bits);
    return new MatrixMechanism(lattice, LeastSquares.of(lattice));
  }

  /** Drops the in-memory level (files stay). */
  public void clearMemory() {
    memory.clear();
  }

  /** Look-ups answered from memory. */
  public long memoryHits() {
    return memoryHits.get();
  }

  /** Look-ups answered from disk. */
  public long diskHits() {
    return diskHits.get();
  }

  /** Look-ups that ran the designer. */
  public long designs() {
    return designs.get();
  }

  /** The file that stores {@code signature} (whether or not it exists). */
  public Path fileFor(String signature) {
    if (directory == null) {
      throw new IllegalStateException("memory-only cache");
    }
    return fileFor0(signature + "|bits=" + bits);
  }

  /**
   * A stable signature of a workload and the design options: its description, shape and a digest of
   * {@code WᵀW} applied to a fixed pseudo-random probe (values rounded to 10 significant digits),
   * which separates workloads with equal descriptions (explicit, permuted). Equal signatures for
   * different workloads are possible only if their Gram matrices agree on the probe to 10 digits.
   */
  public static String signature(Workload w, String designOptions) {
    return signature(workloadSignature(w), designOptions);
  }

  /**
   * The workload part of {@link #signature(Workload, String)}: its description, shape and the
   * digest of {@code WᵀW} on the probe. Compute it once when several designs of one workload are
   * looked up.
   */
  public static String workloadSignature(Workload w) {
    int n = w.cells();
    SplittableRandom r = new SplittableRandom(0x5EED_001L);
    double[][] probe = new double[n][2];
    for (double[] row : probe) {
      row[0] = r.nextDouble() - 0.5;
      row[1] = r.nextDouble() - 0.5;
    }
    double[][] g = w.gramTimes(probe);
    MathContext ten = new MathContext(10);
    StringBuilder digits = new StringBuilder();
    for (double[] row : g) {
      for (double v : row) {
        digits.append(new BigDecimal(v).round(ten).stripTrailingZeros().toString()).append(',');
      }
    }
    return w + "|n=" + n + "|m=" + w.queries() + "|gram=" + sha256(digits.toString()).substring(0, 32);
  }

  /** {@link #signature(Workload, String)} from an already computed {@link #workloadSignature}. */
  public static String signature(String workloadSignature, String designOptions) {
    Objects.requireNonNull(designOptions, "designOptions");
    return workloadSignature + "|design=" + designOptions;
  }


  // ------------------------------------------------------------------------------------------------
  // Disk format: MAGIC, VERSION, key (UTF), name (UTF), factor count, per factor rows, cols and
  // rows·cols doubles (row-major); then the CRC-32 of everything before it.

  private Strategy read(String key) {
    Path file = fileFor0(key);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      byte[] bytes = Files.readAllBytes(file);
      if (bytes.length < 8) {
        return null;
      }
      CRC32 crc = new CRC32();
      crc.update(bytes, 0, bytes.length - 8);
      DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
      if (in.readLong() != MAGIC || in.readInt() != VERSION || !in.readUTF().equals(key)) {
        return null;
      }
      String name = in.readUTF();
      int count = in.readInt();
      if (count < 1 || count > 64) {
        return null;
      }
      List<Strategy> factors = new ArrayList<>();
      for (int f = 0; f < count; f++) {
        int rows = in.readInt();
        int cols = in.readInt();
        if (rows < 1 || cols < 1 || (long) rows * cols * 8 > bytes.length) {
          return null;
        }
        double[][] a = new double[rows][cols];
        for (double[] row : a) {
          for (int j = 0; j < cols; j++) {
            row[j] = in.readDouble();
          }
        }
        factors.add(new ExplicitStrategy(count == 1 ? name : name + "[" + f + "]", a));
      }
      long stored = in.readLong();
      if (in.available() != 0 || stored != crc.getValue()) {
        return null;
      }
      return count == 1 ? factors.get(0) : new KroneckerStrategy(name, factors);
    } catch (IOException | RuntimeException e) {
      return null; // unreadable or corrupt: recompute
    }
  }

  private void write(String key, Strategy s) {
    try {
      Files.createDirectories(directory);
      Path target = fileFor0(key);
      Path tmp = Files.createTempFile(directory, target.getFileName().toString(), ".tmp");
      try {
        CRC32 crc = new CRC32();
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
          DataOutputStream out = new DataOutputStream(new CheckedOutputStream(file, crc));
          out.writeLong(MAGIC);
          out.writeInt(VERSION);
          out.writeUTF(key);
          out.writeUTF(s.name());
          List<Strategy> factors = s.kroneckerFactors();
          out.writeInt(factors.size());
          for (Strategy f : factors) {
            double[][] a = f.matrix();
            out.writeInt(a.length);
            out.writeInt(a[0].length);
            for (double[] row : a) {
              for (double v : row) {
                out.writeDouble(v);
              }
            }
          }
          out.flush();
          new DataOutputStream(file).writeLong(crc.getValue());
        }
        try {
          Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException | RuntimeException e) {
      // The disk level is an optimisation: failing to write only costs a redesign later.
    }
  }

  private Path fileFor0(String key) {
    return directory.resolve(sha256(key) + ".strategy");
  }

  private static String sha256(String s) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
