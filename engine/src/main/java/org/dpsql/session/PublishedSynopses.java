package org.dpsql.session;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.SecureRandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.policy.SynopsisSpec;
import org.dpsql.policy.TablePolicy;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;

/**
 * The data owner's published synopses (policy {@code synopses:}): each is one {@code
 * DPSQL.WORKLOAD} family released once with the owner's budget, stored in the synopsis store, and
 * then used by every connection to answer covered queries for free.
 *
 * <p>Guarantees: a synopsis is released at most once per (store file, specification): the release
 * is written to its file (fsync, then an atomic rename) before any connection may use it, and a
 * later connection — in this process or after a restart — reads the file instead of releasing
 * again, so the owner's budget for it is spent once and its noise can never be averaged away. The
 * noise comes from the secure random source, never from a connection's seed. A file whose
 * specification or column domains differ from the policy's (the owner changed them) is replaced by
 * a new release, which spends the synopsis budget again; the owner deletes a file to refresh a
 * synopsis after the data changed. A corrupt file is refused (XDP04), never silently re-released.
 */
final class PublishedSynopses {
  private static final long MAGIC = 0x4450_5351_4c53_594eL; // "DPSQLSYN"
  private static final int VERSION = 1;

  /** Released synopses by store file, shared by every connection of this process. */
  private static final Map<Path, Loaded> LOADED = new ConcurrentHashMap<>();

  private record Loaded(String fingerprint, Synopsis synopsis) {}

  private PublishedSynopses() {}

  /**
   * The published synopses of {@code policy}, released now if their files do not exist yet.
   *
   * @throws SQLException XDP04 when a specification is invalid, the store is not usable or a file
   *     is corrupt; the backend's errors while measuring (nothing is stored then)
   */
  static List<Synopsis> load(Policy policy, FrontEnd analyzer, ExactMeasurer measurer,
      java.math.BigDecimal reportingDelta) throws SQLException {
    if (policy.synopses().isEmpty()) {
      return List.of();
    }
    Path store = store(policy);
    List<Synopsis> out = new ArrayList<>();
    for (SynopsisSpec spec : policy.synopses().values()) {
      Path file = store.resolve(spec.name().toUpperCase(java.util.Locale.ROOT) + ".synopsis");
      synchronized (PublishedSynopses.class) {
        TablePolicy table = policy.table(spec.table()).orElseThrow(() -> problem(policy, spec,
            "no table " + spec.table() + " in the policy"));
        String fingerprint = fingerprint(policy, spec);
        Loaded cached = LOADED.get(file);
        Synopsis s = null;
        if (cached != null && cached.fingerprint().equals(fingerprint)) {
          s = cached.synopsis();
        } else if (Files.exists(file)) {
          s = read(file, policy, spec, table, fingerprint);
        }
        if (s == null) {
          s = release(policy, spec, analyzer, measurer, reportingDelta);
          write(file, s, fingerprint);
        }
        LOADED.put(file, new Loaded(fingerprint, s));
        // named in the ledger of every query it answers
        out.add(new Synopsis(s.table(), s.cells(), s.measurement(), s.estimate(), s.values(),
            "published:" + spec.name() + ":" + s.mechanism()));
      }
    }
    return out;
  }

  /** The store directory: {@code synopsis_store}, or {@code <policy file>.synopses}. */
  static Path store(Policy policy) throws SQLException {
    String source = policy.source();
    boolean classpath = source.startsWith(PolicyLoader.CLASSPATH_PREFIX);
    Path dir;
    if (policy.synopsisStore() != null) {
      Path p = Path.of(policy.synopsisStore());
      Path base = classpath || Path.of(source).toAbsolutePath().getParent() == null
          ? Path.of("").toAbsolutePath() : Path.of(source).toAbsolutePath().getParent();
      dir = p.isAbsolute() ? p : base.resolve(p);
    } else if (classpath) {
      throw SqlStates.policyError("policy " + source + ": synopsis_store: a class-path policy "
          + "with synopses must name a directory where their releases are kept (synopsis_store: "
          + "path), so that they are released once and not at every start");
    } else {
      Path f = Path.of(source).toAbsolutePath();
      dir = f.resolveSibling(f.getFileName() + ".synopses");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw SqlStates.policyError("policy " + source + ": synopsis_store: cannot create " + dir
          + ": " + e.getMessage());
    }
    return dir.toAbsolutePath().normalize();
  }

  private static Synopsis release(Policy policy, SynopsisSpec spec, FrontEnd analyzer,
      ExactMeasurer measurer, java.math.BigDecimal reportingDelta) throws SQLException {
    StringBuilder options = new StringBuilder();
    BudgetAmount b = spec.budget();
    if (b.rho() != null) {
      options.append("rho=").append(b.rho().toPlainString());
    } else {
      options.append("epsilon=").append(b.epsilon().toPlainString());
      if (b.delta() != null) {
        options.append(", delta=").append(b.delta().toPlainString());
      }
    }
    options.append(", mechanism=").append(spec.mechanism());
    // kept, never returned: released as cells, so families too large to return (all ranges over
    // an hourly year) are published too
    options.append(", output=cells");
    String sql = "SELECT * FROM TABLE(DPSQL.WORKLOAD('" + spec.table().replace("'", "''")
        + "', '" + spec.workload().replace("'", "''") + "', '" + options + "'))";
    AnalyzedStatement st;
    try {
      st = analyzer.analyze(sql);
    } catch (SQLException e) {
      throw problem(policy, spec, e.getMessage());
    }
    if (!(st instanceof AnalyzedStatement.NamedWorkload w)) {
      throw problem(policy, spec, "not a DPSQL.WORKLOAD family");
    }
    Accounting accounting = Accounting.parse(policy.budget().accounting());
    PrivacyCost budget = switch (accounting) {
      case PURE -> PrivacyCost.pure(b.epsilon());
      case APPROX -> PrivacyCost.approx(b.epsilon(), b.delta());
      case ZCDP -> PrivacyCost.zcdp(b.rho());
    };
    // the owner's own budget for this release, spent here once
    Accountant owner = Accountant.create(accounting, budget, reportingDelta);
    WorkloadExecutor executor = new WorkloadExecutor(policy, owner, reportingDelta,
        new SecureRandomBits(), measurer, Releases.inMemory(policy));
    executor.release(w.query(), "published synopsis " + spec.name());
    List<Synopsis> released = executor.synopses();
    if (released.size() != 1 || released.get(0).estimate() == null) {
      throw problem(policy, spec, "its release did not produce one least-squares estimate");
    }
    return released.get(0);
  }

  private static String fingerprint(Policy policy, SynopsisSpec spec) {
    TablePolicy t = policy.table(spec.table()).orElseThrow();
    return "v" + VERSION + "|" + policy.budget().accounting() + "|" + t.name() + "|"
        + spec.workload().replaceAll("\\s+", "") + "|" + spec.budget() + "|" + spec.mechanism()
        + "|" + t.columns().values();
  }

  // ---------------------------------------------------------------------------- file format

  private static void write(Path file, Synopsis s, String fingerprint) throws SQLException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    CRC32 crc = new CRC32();
    try (OutputStream raw = Files.newOutputStream(tmp);
        CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(raw), crc);
        DataOutputStream out = new DataOutputStream(checked)) {
      out.writeLong(MAGIC);
      out.writeInt(VERSION);
      out.writeUTF(fingerprint);
      ReleaseCodec.writeEstimateSynopsis(out, s);
      out.flush();
      long sum = crc.getValue();
      out.writeLong(sum);
    } catch (IOException e) {
      throw SqlStates.policyError("cannot write the published synopsis " + file + ": "
          + e.getMessage());
    }
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
        dir.force(true);
      } catch (IOException ignored) {
        // some file systems cannot sync a directory; the rename itself is atomic
      }
    } catch (IOException e) {
      throw SqlStates.policyError("cannot store the published synopsis " + file + ": "
          + e.getMessage());
    }
  }

  /** The synopsis in {@code file}, or null when it was released for another specification. */
  private static Synopsis read(Path file, Policy policy, SynopsisSpec spec, TablePolicy table,
      String fingerprint) throws SQLException {
    CRC32 crc = new CRC32();
    try (InputStream raw = Files.newInputStream(file);
        CheckedInputStream checked = new CheckedInputStream(new BufferedInputStream(raw), crc);
        DataInputStream in = new DataInputStream(checked)) {
      if (in.readLong() != MAGIC || in.readInt() != VERSION) {
        throw new IOException("not a dpsql synopsis file of version " + VERSION);
      }
      if (!in.readUTF().equals(fingerprint)) {
        return null; // the owner changed the specification or the domains: release anew
      }
      // null: released for another table (the owner changed the specification)
      Synopsis s = ReleaseCodec.readEstimateSynopsis(in,
          name -> name.equals(table.name()) ? table : null);
      if (s == null) {
        return null;
      }
      long expected = crc.getValue();
      if (in.readLong() != expected) {
        throw new IOException("checksum mismatch");
      }
      return s;
    } catch (IOException | RuntimeException e) {
      throw problem(policy, spec, "its stored release " + file + " is unreadable (" + e.getMessage()
          + "); restore the file from a backup, or delete it to release the synopsis again (this "
          + "spends its budget again)");
    }
  }

  private static SQLException problem(Policy policy, SynopsisSpec spec, String message) {
    return SqlStates.policyError("policy " + policy.source() + ": synopses." + spec.name() + ": "
        + message);
  }

  /** Forgets the released synopses held in memory (tests); the files stay. */
  static void forgetLoaded() {
    LOADED.clear();
  }
}
