package org.dpsql.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Plays the demo: generates the trips data set into H2, connects to it through dpsql with the demo
 * policy, runs the scripts and prints, for a reader new to differential privacy, each statement,
 * dpsql's (noisy) answer, the true answer and the error, and the budget left.
 *
 * <p>Run it with {@code mvn -B -q -Pdemo -DskipTests -pl sql-examples -am verify} from the
 * repository root, or {@code java -cp ... org.dpsql.examples.DemoRunner --help}.
 */
public final class DemoRunner {

  /** Default backend: a private in-memory H2 database (URL without {@code jdbc:}). */
  public static final String DEFAULT_DB = "h2:mem:dpsql-demo;DB_CLOSE_DELAY=-1";
  /** Default noise seed, so that the demo prints the same numbers on every run. */
  public static final long DEFAULT_SEED = 42;
  /** Default number of rows printed per result. */
  public static final int DEFAULT_MAX_ROWS = 40;
  /** The policy resource the runner uses unless {@code --policy} is given. */
  public static final String POLICY_RESOURCE = "demo-policy.yaml";
  /** Tables whose queries are private (noisy) and get compared with the truth. */
  public static final List<String> PRIVATE_TABLES = List.of(DemoData.TRIPS, DemoData.RIDERS);

  private static final String RULE = "=".repeat(100);
  private static final String INDENT = "  ";

  static final String USAGE =
      String.join(
          "\n",
          "usage: DemoRunner [options]",
          "",
          "Generates a synthetic ride-hailing data set, then runs the demo SQL scripts through the",
          "dpsql JDBC driver and prints each answer next to the true one.",
          "",
          "options:",
          "  --db <url>         backend JDBC URL without 'jdbc:' (default: " + DEFAULT_DB + ")",
          "  --rows <n>         number of trips to generate (default: " + DemoData.DEFAULT_TRIPS + ")",
          "  --riders <n>       number of riders (default: rows / " + DemoData.TRIPS_PER_RIDER + ")",
          "  --scripts <dir>    directory of *.sql scripts (default: sql-examples/scripts or",
          "                     ./scripts, else the copies inside the jar)",
          "  --seed <n>         noise seed, passed as the 'seed' connection property (default: "
              + DEFAULT_SEED + ")",
          "  --no-seed          fresh noise on every run",
          "  --policy <p>       policy file or classpath:NAME (default: the bundled " + POLICY_RESOURCE + ")",
          "  --max-rows <n>     rows printed per result (default: " + DEFAULT_MAX_ROWS + ")",
          "  --help             this text",
          "");

  /** Command-line options. */
  record Options(
      String db, int rows, int riders, Path scripts, Long seed, String policy, int maxRows, boolean help) {

    static Options parse(String[] args) {
      String db = DEFAULT_DB;
      int rows = DemoData.DEFAULT_TRIPS;
      Integer riders = null;
      Path scripts = null;
      Long seed = DEFAULT_SEED;
      String policy = null;
      int maxRows = DEFAULT_MAX_ROWS;
      boolean help = false;
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        String value = null;
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 0) {
          value = arg.substring(eq + 1);
          arg = arg.substring(0, eq);
        }
        switch (arg) {
          case "--help", "-h" -> help = true;
          case "--no-seed" -> seed = null;
          case "--db", "--rows", "--riders", "--scripts", "--seed", "--policy", "--max-rows" -> {
            if (value == null) {
              if (i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
              }
              value = args[++i];
            }
            switch (arg) {
              case "--db" -> db = withoutPrefix(value);
              case "--rows" -> rows = positive(arg, value);
              case "--riders" -> riders = positive(arg, value);
              case "--scripts" -> scripts = Path.of(value);
              case "--seed" -> seed = number(arg, value);
              case "--policy" -> policy = value;
              case "--max-rows" -> maxRows = positive(arg, value);
              default -> throw new AssertionError(arg);
            }
          }
          default -> throw new IllegalArgumentException("unknown option: " + args[i]);
        }
      }
      int riderCount = riders != null ? riders : Math.max(1, rows / DemoData.TRIPS_PER_RIDER);
      return new Options(db, rows, riderCount, scripts, seed, policy, maxRows, help);
    }

    private static String withoutPrefix(String url) {
      String u = url.strip();
      for (String prefix : new String[] {"jdbc:", "dpsql:"}) {
        if (u.regionMatches(true, 0, prefix, 0, prefix.length())) {
          u = u.substring(prefix.length());
        }
      }
      return u;
    }

    private static int positive(String option, String value) {
      long n = number(option, value);
      if (n < 1 || n > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(option + " must be a positive integer, got " + value);
      }
      return (int) n;
    }

    private static long number(String option, String value) {
      try {
        return Long.parseLong(value.strip().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " must be an integer, got " + value);
      }
    }
  }

  /** Thrown by {@link #main} when the demo did not go as scripted; the message says why. */
  static final class DemoFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DemoFailed(String message) {
      super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this; // the message is all there is to say
    }
  }

  private final PrintStream out;
  private final Options options;
  private Connection dpsql;
  private Connection direct;
  private boolean budgetUnavailable;

  private final List<String> problems = new ArrayList<>();
  private int executed;
  private int charged;
  private int free;
  private int refusedAsExpected;

  private DemoRunner(PrintStream out, Options options) {
    this.out = out;
    this.options = options;
  }

  /** Runs the demo on {@code System.out}; throws {@link DemoFailed} if it did not go as scripted. */
  public static void main(String[] args) {
    int code = run(args, System.out);
    System.out.flush();
    if (code != 0) {
      throw new DemoFailed(
          code == 2 ? "bad arguments (see --help)" : "the dpsql demo did not go as scripted (see above)");
    }
  }

  /**
   * Runs the demo and prints to {@code out}.
   *
   * @return 0 if every statement behaved as its script says, 1 if not (a statement that should have
   *     been refused was not, an unexpected error, a wrong answer shape), 2 for bad arguments
   */
  public static int run(String[] args, PrintStream out) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      out.println("error: " + e.getMessage());
      out.println();
      out.print(USAGE);
      out.flush();
      return 2;
    }
    if (options.help()) {
      out.print(USAGE);
      out.flush();
      return 0;
    }
    try {
      return new DemoRunner(out, options).play();
    } finally {
      out.flush();
    }
  }

  private int play() {
    out.println(RULE);
    out.println(" dpsql demo: differentially private SQL over synthetic ride-hailing trips");
    out.println(RULE);
    String backendUrl = "jdbc:" + options.db();
    try {
      direct = DriverManager.getConnection(backendUrl);
    } catch (SQLException e) {
      out.println("cannot open the backend " + backendUrl + ": " + e.getMessage());
      return 1;
    }
    try {
      DemoData.Summary data;
      try {
        data = DemoData.generate(direct, new DemoData.Config(options.rows(), options.riders(), DemoData.DEFAULT_SEED));
      } catch (SQLException | IllegalArgumentException e) {
        out.println("cannot generate the demo data: " + e.getMessage());
        return 1;
      }
      ScriptLocator.Scripts scripts;
      String policy;
      try {
        scripts = ScriptLocator.load(options.scripts());
        policy = options.policy() != null ? options.policy() : bundledPolicy();
      } catch (IOException | IllegalArgumentException e) {
        out.println("cannot start: " + e.getMessage());
        return 1;
      }
      printHeader(backendUrl, data, policy, scripts);
      Properties properties = new Properties();
      properties.setProperty("policy", policy);
      if (options.seed() != null) {
        properties.setProperty("seed", Long.toString(options.seed()));
      }
      String dpsqlUrl = "jdbc:dpsql:" + options.db();
      try {
        dpsql = DriverManager.getConnection(dpsqlUrl, properties);
      } catch (SQLException e) {
        out.println("cannot connect to " + dpsqlUrl + ": " + describe(e));
        if (e.getSQLState() == null || e.getMessage().contains("No suitable driver")) {
          out.println("(is the dpsql driver, module dpsql-engine, on the class path?)");
        }
        return 1;
      }
      for (SqlScript script : scripts.scripts()) {
        playScript(script);
      }
      printSummary();
      return problems.isEmpty() ? 0 : 1;
    } finally {
      closeQuietly(dpsql);
      closeQuietly(direct);
    }
  }

  private void printHeader(
      String backendUrl, DemoData.Summary data, String policy, ScriptLocator.Scripts scripts) {
    out.println(" backend   " + backendUrl);
    out.printf(
        Locale.ROOT,
        " data      TRIPS: %d trips by %d riders (%d heavy riders with %d+ trips), COUNTIES: %d counties;"
            + " generated in %.1f s%n",
        data.trips(),
        data.riders(),
        data.heavyRiders(),
        DemoData.HEAVY_MIN,
        DemoData.COUNTIES.size(),
        data.millis() / 1000.0);
    out.println(
        " policy    "
            + (options.policy() == null ? POLICY_RESOURCE + " (bundled, copied to " + policy + ")" : policy));
    out.println(
        " seed      "
            + (options.seed() == null
                ? "none: the noise differs on every run"
                : options.seed() + " (fixed so the demo is reproducible; never fix it in production)"));
    out.println(" scripts   " + scripts.origin() + " (" + scripts.scripts().size() + " files)");
    out.println();
    out.println(" How to read this: each step shows some explanation, the SQL sent to dpsql (after");
    out.println(" 'dpsql>'), and its answer. For questions about the private table TRIPS, the answer");
    out.println(" is noisy; next to it this demo shows the TRUE answer, computed directly on the");
    out.println(" database, and the error (|noisy - true|). A real analyst only ever sees the noisy");
    out.println(" numbers; the truth is printed here so you can judge how much the noise costs.");
    out.println();
  }

  private void playScript(SqlScript script) {
    out.println(RULE);
    out.println(" " + script.name());
    out.println(RULE);
    for (SqlScript.Statement statement : script.statements()) {
      playStatement(script, statement);
    }
    if (!script.epilogue().isEmpty()) {
      out.println();
      for (String line : script.epilogue()) {
        out.println(line);
      }
    }
    out.println();
  }

  private void playStatement(SqlScript script, SqlScript.Statement statement) {
    executed++;
    out.println();
    for (String line : statement.narration()) {
      out.println(line);
    }
    out.println();
    printSql(statement.sql());
    out.println();
    String where = script.name() + ":" + statement.line();
    QueryShape shape = QueryShape.of(statement.sql());
    boolean privateQuery = shape.isSelect() && shape.readsAnyOf(PRIVATE_TABLES);
    Map<String, Object> before = budget();
    boolean refused = false;
    try (Statement jdbc = dpsql.createStatement()) {
      boolean hasResult = jdbc.execute(statement.sql());
      if (statement.expectsError()) {
        String expected = statement.expectedError().isEmpty() ? "a refusal" : "[" + statement.expectedError() + "]";
        out.println(INDENT + "NOT REFUSED: this statement should have been refused with " + expected + ", but ran.");
        problems.add(where + ": expected " + expected + " but the statement was not refused");
      }
      if (hasResult) {
        QueryResult answer;
        try (ResultSet resultSet = jdbc.getResultSet()) {
          answer = QueryResult.read(resultSet);
        }
        if (privateQuery && !statement.expectsError() && statement.truthSql() != null) {
          showWithTruth(where, statement, shape, answer);
        } else {
          printIndented(TextTable.of(answer).render(options.maxRows()));
        }
      } else {
        out.println(INDENT + "(" + jdbc.getUpdateCount() + " rows affected)");
      }
    } catch (SQLException e) {
      refused = true;
      out.println(INDENT + "refused " + describe(e));
      if (statement.expectsError()) {
        String expected = statement.expectedError();
        if (expected.isEmpty() || expected.equalsIgnoreCase(e.getSQLState())) {
          refusedAsExpected++;
          out.println(INDENT + "(refused as expected)");
        } else {
          out.println(INDENT + "UNEXPECTED: the script expects [" + expected + "] here");
          problems.add(where + ": expected [" + expected + "] but got " + describe(e));
        }
      } else {
        out.println(INDENT + "UNEXPECTED: this statement should have been answered");
        problems.add(where + ": unexpected error " + describe(e));
      }
    }
    String why = refused ? "refused statements cost nothing" : "answered from results released before";
    boolean spent = reportBudget(before, budget(), privateQuery || refused, why);
    if (spent) {
      charged++;
    } else if (privateQuery && !refused) {
      free++;
    }
  }

  /** The noisy answer, joined with the truth from the backend, plus error summary lines. */
  private void showWithTruth(
      String where, SqlScript.Statement statement, QueryShape shape, QueryResult answer) {
    QueryResult truth;
    try (Statement jdbc = direct.createStatement();
        ResultSet resultSet = jdbc.executeQuery(statement.truthSql())) {
      truth = QueryResult.read(resultSet);
    } catch (SQLException e) {
      printIndented(TextTable.of(answer).render(options.maxRows()));
      out.println(INDENT + "cannot compute the true answer on the backend: " + describe(e));
      out.println(INDENT + "truth query: " + statement.truthSql());
      problems.add(where + ": the truth query failed: " + describe(e));
      return;
    }
    List<Boolean> zeroWhenEmpty = new ArrayList<>();
    for (int v = 0; v < shape.aggregates().size(); v++) {
      zeroWhenEmpty.add(shape.zeroWhenEmpty(v));
    }
    TruthComparison comparison;
    try {
      comparison = TruthComparison.compare(answer, truth, shape.keyCount(), zeroWhenEmpty);
    } catch (IllegalArgumentException e) {
      printIndented(TextTable.of(answer).render(options.maxRows()));
      out.println(INDENT + "cannot compare with the true answer: " + e.getMessage());
      problems.add(where + ": " + e.getMessage());
      return;
    }
    out.println(INDENT + "dpsql's noisy answer, with the true answer and the error next to it:");
    printIndented(comparison.table().render(options.maxRows()));
    if (statement.truth() != null) {
      out.println(INDENT + "(true answer computed as: " + statement.truthSql() + ")");
    }
    for (String line : comparison.summary()) {
      out.println(INDENT + line);
    }
    List<String> notes = comparison.notes();
    if (statement.groupsSelected() && comparison.missingGroups() > 0) {
      // expected: the answer's groups were selected privately, or are a noisy top-n
      out.println(INDENT + comparison.missingGroups() + " group(s) of the true answer are not in "
          + "the released one: its groups are selected privately (or are a noisy top-n)");
      notes = comparison.notesBesidesMissingGroups();
    }
    for (String note : notes) {
      out.println(INDENT + "PROBLEM: " + note);
      problems.add(where + ": " + note);
    }
  }

  /** One row of DPSQL.BUDGET by upper-case column label, or null if it cannot be read. */
  private Map<String, Object> budget() {
    if (budgetUnavailable) {
      return null;
    }
    try (Statement jdbc = dpsql.createStatement();
        ResultSet resultSet = jdbc.executeQuery("SELECT * FROM DPSQL.BUDGET")) {
      QueryResult result = QueryResult.read(resultSet);
      if (result.rows().isEmpty()) {
        return null;
      }
      Map<String, Object> row = new HashMap<>();
      for (int i = 0; i < result.width(); i++) {
        row.put(result.columns().get(i).toUpperCase(Locale.ROOT), result.rows().get(0).get(i));
      }
      return row;
    } catch (SQLException e) {
      budgetUnavailable = true;
      out.println(INDENT + "(cannot read DPSQL.BUDGET, budget lines are left out: " + describe(e) + ")");
      return null;
    }
  }

  /**
   * Prints what the statement spent and what is left, if it spent something or {@code always}
   * ({@code whyFree} explains a statement that spent nothing).
   *
   * @return whether the statement was charged
   */
  private boolean reportBudget(
      Map<String, Object> before, Map<String, Object> after, boolean always, String whyFree) {
    if (before == null || after == null) {
      return false;
    }
    Double spentBefore = TruthComparison.toDouble(before.get("SPENT"));
    Double spentAfter = TruthComparison.toDouble(after.get("SPENT"));
    if (spentBefore == null || spentAfter == null) {
      return false;
    }
    double spent = spentAfter - spentBefore;
    boolean wasCharged = spent > 1e-12;
    if (!wasCharged && !always) {
      return false;
    }
    String unit = after.get("UNIT") != null ? after.get("UNIT").toString() : "";
    StringBuilder line = new StringBuilder(INDENT).append("budget: ");
    if (wasCharged) {
      line.append("this statement spent ").append(unit).append(' ').append(TextTable.format(spent));
    } else {
      line.append("nothing spent (").append(whyFree).append(')');
    }
    line.append("; ")
        .append(TextTable.format(after.get("REMAINING")))
        .append(" of ")
        .append(TextTable.format(after.get("TOTAL")))
        .append(' ')
        .append(unit)
        .append(" left");
    Object epsilonSpent = after.get("EPSILON_SPENT");
    Object epsilonTotal = after.get("EPSILON_TOTAL");
    if (epsilonSpent != null && epsilonTotal != null) {
      line.append(" (as classic DP: epsilon ")
          .append(TextTable.format(epsilonSpent))
          .append(" spent of ")
          .append(TextTable.format(epsilonTotal));
      if (after.get("DELTA") != null) {
        line.append(" at delta ").append(TextTable.format(after.get("DELTA")));
      }
      line.append(')');
    }
    out.println(line);
    return wasCharged;
  }

  private void printSummary() {
    out.println(RULE);
    out.println(" summary");
    out.println(RULE);
    out.printf(
        Locale.ROOT,
        " %d statements: %d charged the budget, %d private answers were free (already released),"
            + " %d refused as the scripts expect, %d %s%n",
        executed,
        charged,
        free,
        refusedAsExpected,
        problems.size(),
        problems.size() == 1 ? "problem" : "problems");
    Map<String, Object> budget = budget();
    if (budget != null) {
      out.println(
          " budget left: "
              + TextTable.format(budget.get("REMAINING"))
              + " of "
              + TextTable.format(budget.get("TOTAL"))
              + " "
              + (budget.get("UNIT") == null ? "" : budget.get("UNIT")));
    }
    if (problems.isEmpty()) {
      out.println(" every statement behaved as its script says.");
    } else {
      out.println(" PROBLEMS:");
      for (String problem : problems) {
        out.println("  - " + problem);
      }
    }
  }

  private void printSql(String sql) {
    String[] lines = sql.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String prefix = i == 0 ? "dpsql> " : "       ";
      String suffix = i == lines.length - 1 ? ";" : "";
      out.println(INDENT + prefix + lines[i].stripTrailing() + suffix);
    }
  }

  private void printIndented(String block) {
    for (String line : block.split("\n")) {
      out.println(INDENT + line);
    }
  }

  /** {@code [SQLState]: message}, the way the demo prints every error. */
  static String describe(SQLException e) {
    String message =
        e.getMessage() == null
            ? e.getClass().getSimpleName()
            : e.getMessage().strip().replaceAll("\\s*\\R\\s*", " ");
    return "[" + e.getSQLState() + "]: " + message;
  }

  /** Copies the bundled policy to a temporary file, so that any driver can read it by path. */
  private static String bundledPolicy() throws IOException {
    try (InputStream in = DemoRunner.class.getClassLoader().getResourceAsStream(POLICY_RESOURCE)) {
      if (in == null) {
        throw new IOException(POLICY_RESOURCE + " is not on the class path");
      }
      Path file = Files.createTempFile("dpsql-demo-policy-", ".yaml");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file.toAbsolutePath().toString();
    }
  }

  private static void closeQuietly(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // nothing useful to do at the end of the demo
      }
    }
  }
}
