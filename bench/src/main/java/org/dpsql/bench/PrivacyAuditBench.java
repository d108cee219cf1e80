package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import org.dpsql.audit.AuditTable;

/**
 * The long version of the end-to-end privacy audit (the engine test {@code ReleasePathAuditTest}
 * with larger samples): every release path on two neighbouring H2 databases, honest and with its
 * deliberate fault, every run a fresh connection through {@code DriverManager}. Prints one line per
 * path and writes the table between the markers {@code <!-- audit-table:begin -->} and {@code
 * <!-- audit-table:end -->} of the document (default {@code docs/privacy-audit.md}). Exits with
 * status 1 if a path fails its audit or a broken variant is not flagged.
 *
 * <p>Run from the repository root: {@code java -cp bench/target/benchmarks.jar
 * org.dpsql.bench.PrivacyAuditBench [--selection 4000] [--estimation 21000] [--threads 2]
 * [--alpha 0.05] [--doc docs/privacy-audit.md] [--paths name,name]} (the defaults: about 30
 * minutes on 2 cores; {@code --paths} audits only the paths named, e.g. {@code count-geometric}).
 */
public final class PrivacyAuditBench {
  static final String BEGIN = "<!-- audit-table:begin -->";
  static final String END = "<!-- audit-table:end -->";

  private PrivacyAuditBench() {}

  public static void main(String[] args) throws Exception {
    int selection = 4000;
    int estimation = 21000;
    int threads = 2;
    double alpha = 0.05;
    Path doc = Path.of("docs", "privacy-audit.md");
    List<String> paths = List.of();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--selection" -> selection = Integer.parseInt(args[++i]);
        case "--estimation" -> estimation = Integer.parseInt(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--alpha" -> alpha = Double.parseDouble(args[++i]);
        case "--doc" -> doc = Path.of(args[++i]);
        case "--paths" -> paths = List.of(args[++i].split(","));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    System.out.printf("privacy audit: %d + %d runs per database and variant, confidence %.3f, "
            + "%d threads, %d cores, JVM %s%n", selection, estimation, 1 - alpha, threads,
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"));
    long start = System.nanoTime();
    AuditTable.Outcome outcome = AuditTable.run(selection, estimation, alpha, threads, System.out,
        paths);
    double minutes = (System.nanoTime() - start) / 60e9;
    long runs = 4L * outcome.paths() * (selection + estimation) + outcome.paths();
    String block = BEGIN + "\n" + String.format(Locale.ROOT, "Measured %s with `PrivacyAuditBench "
            + "--selection %d --estimation %d --threads %d --alpha %s` on %d cores (JVM %s): "
            + "%,d connections in %.1f minutes, %.1f ms per run and thread. Confidence %.0f%% "
            + "(each Clopper–Pearson bound at %.1f%%).%n%n", LocalDate.now(), selection,
        estimation, threads, alpha, Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.version"), runs, minutes, minutes * 60e3 * threads / runs,
        100 * (1 - alpha), 100 * (1 - alpha / 2)) + outcome.markdown() + END;
    System.out.println();
    System.out.println(block);
    if (Files.exists(doc)) {
      String text = Files.readString(doc);
      int b = text.indexOf(BEGIN);
      int e = text.indexOf(END);
      if (b < 0 || e < b) {
        throw new IllegalStateException(doc + " has no " + BEGIN + " ... " + END + " block");
      }
      Files.writeString(doc, text.substring(0, b) + block + text.substring(e + END.length()));
    } else {
      Files.writeString(doc, "# Privacy audit\n\n" + block + "\n");
    }
    System.out.println("wrote " + doc.toAbsolutePath());
    if (!outcome.allPassed()) {
      System.out.println("AUDIT FAILED");
      System.exit(1);
    }
  }
}
