package org.dpsql.policy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dpsql.policy.PolicyYaml.YamlBool;

/**
 * Turns policy text into a {@link Policy}, checking every rule of the file format that does not
 * need the backend. Names keep the spelling of the file; the schema check replaces them with the
 * backend's.
 */
final class PolicyParser {
  static final List<String> TOP_KEYS =
      List.of("allow_seed", "budget", "tables", "synopses", "synopsis_store", "adaptive_tables",
          "limits", "units", "measurement");
  static final List<String> UNIT_KEYS = List.of("max_rows_per_unit");
  static final List<String> LIMITS_KEYS = List.of("statement_timeout_s", "max_cells",
      "streaming_max_rows");
  static final List<String> ADAPTIVE_KEYS = List.of("persons", "iterations", "mechanism", "gamma",
      "thresholds", "sexes", "ages", "levels");
  static final List<String> ADAPTIVE_PERSONS_KEYS = List.of("table", "person", "sex", "age");
  static final List<String> ADAPTIVE_ITERATIONS_KEYS = List.of("table", "person", "iteration");
  static final List<String> ADAPTIVE_AGES_KEYS = List.of("max", "finest", "bins");
  static final List<String> ADAPTIVE_LEVEL_KEYS = List.of("geography", "geographies",
      "iterations", "total_only", "budget", "stability");
  static final List<String> ADAPTIVE_MECHANISMS = List.of("geometric", "discrete_gaussian");
  static final List<String> SYNOPSIS_KEYS = List.of("table", "workload", "budget", "mechanism");
  static final List<String> BUDGET_KEYS = List.of("accounting", "per_connection", "default_query");
  static final List<String> AMOUNT_KEYS = List.of("epsilon", "delta", "rho");
  static final List<String> TABLE_KEYS =
      List.of("public", "privacy_unit", "max_rows_per_unit", "bounding", "answer_range", "columns",
          "hierarchies", "spatial", "unit");
  static final List<String> COLUMN_KEYS =
      List.of("values", "min", "max", "bin", "clamp", "keys", "max_groups_per_unit");
  static final String ROW_UNIT = "ROW";

  private static final String DOMAIN_HELP =
      "every listed column needs {values: [...]}, {min: .., max: .., bin: ..} (numbers, or dates "
      + "with a bin of 1 hour/day/week/month/quarter/year), {clamp: [lo, hi]} or {keys: private} "
      + "(a group key whose groups are selected privately)";

  private final String source;

  PolicyParser(String source) {
    this.source = source;
  }

  Policy parse(String text) throws SQLException {
    Object doc = PolicyYaml.load(text, source);
    if (doc == null) {
      throw problem("", "the policy is empty; it needs at least 'budget' and 'tables'");
    }
    if (!(doc instanceof Map)) {
      throw problem("", "the policy must be a mapping with keys " + String.join(", ", TOP_KEYS)
          + ", got " + describe(doc));
    }
    Map<String, Object> root = mapping(doc, "");
    checkKeys(root, "", TOP_KEYS);
    boolean allowSeed =
        root.containsKey("allow_seed") && bool(root.get("allow_seed"), "allow_seed");
    BudgetPolicy budget = budget(required(root, "", "budget", "{accounting, per_connection, "
        + "default_query}"), "budget");
    Map<String, TablePolicy> tables = tables(required(root, "", "tables", "a mapping of table "
        + "names"), "tables");
    Map<String, SynopsisSpec> synopses = root.containsKey("synopses")
        ? synopses(root.get("synopses"), "synopses", budget.accounting()) : Map.of();
    String store = null;
    if (root.containsKey("synopsis_store")) {
      Object v = root.get("synopsis_store");
      if (!(v instanceof String) || ((String) v).isBlank()) {
        throw problem("synopsis_store", "must be a directory path, got " + describe(v));
      }
      store = ((String) v).strip();
    }
    Map<String, AdaptiveTablePolicy> adaptive = root.containsKey("adaptive_tables")
        ? adaptiveTables(root.get("adaptive_tables"), "adaptive_tables") : Map.of();
    QueryLimits limits = root.containsKey("limits") ? limits(root.get("limits"), "limits")
        : QueryLimits.NONE;
    if (root.containsKey("measurement")) {
      String name = scalarName(root.get("measurement"), "measurement", "measurement");
      MeasurementChoice choice = MeasurementChoice.ofPolicyName(name);
      if (choice == null) {
        throw problem("measurement", "must be auto, push_down or streaming, got " + name);
      }
      limits = new QueryLimits(limits.statementTimeoutSeconds(), limits.maxCells(), choice,
          limits.streamingMaxRows());
    }
    Map<String, Integer> unitBounds = root.containsKey("units")
        ? units(root.get("units"), "units", tables) : Map.of();
    return new Policy(allowSeed, budget, tables, source, synopses, store, adaptive, limits,
        unitBounds);
  }

  // ---------------------------------------------------------------- shared units

  /**
   * The {@code units:} section: for each shared unit name, the bound on one person's rows in a
   * join of the tables that share it. Every name must be the {@code unit:} of two tables or more.
   */
  private Map<String, Integer> units(Object value, String path, Map<String, TablePolicy> tables)
      throws SQLException {
    Map<String, Object> m = mapping(value, path);
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String uPath = join(path, e.getKey());
      long sharing = tables.values().stream()
          .filter(t -> e.getKey().equalsIgnoreCase(t.sharedUnit())).count();
      if (sharing < 2) {
        throw problem(uPath, "names no unit shared by two tables or more; give the tables that "
            + "protect the same person the same unit: " + e.getKey() + " (found on " + sharing
            + " table" + (sharing == 1 ? "" : "s") + ")");
      }
      Map<String, Object> settings = mapping(e.getValue(), uPath);
      checkKeys(settings, uPath, UNIT_KEYS);
      out.put(TablePolicy.key(e.getKey()), positiveInt(required(settings, uPath,
          "max_rows_per_unit", "a positive integer bounding one person's rows in a join"),
          join(uPath, "max_rows_per_unit")));
    }
    return out;
  }

  // ---------------------------------------------------------------- limits

  /** Largest statement timeout accepted: one day. */
  static final int MAX_TIMEOUT_SECONDS = 86_400;

  private QueryLimits limits(Object value, String path) throws SQLException {
    Map<String, Object> m = mapping(value, path);
    checkKeys(m, path, LIMITS_KEYS);
    Integer timeout = null;
    if (m.containsKey("statement_timeout_s")) {
      String p = join(path, "statement_timeout_s");
      timeout = positiveInt(m.get("statement_timeout_s"), p);
      if (timeout > MAX_TIMEOUT_SECONDS) {
        throw problem(p, "must be at most " + MAX_TIMEOUT_SECONDS + " seconds (one day), got "
            + timeout);
      }
    }
    Integer maxCells = m.containsKey("max_cells")
        ? positiveInt(m.get("max_cells"), join(path, "max_cells")) : null;
    Long streamingMaxRows = m.containsKey("streaming_max_rows")
        ? (long) positiveInt(m.get("streaming_max_rows"), join(path, "streaming_max_rows")) : null;
    return new QueryLimits(timeout, maxCells, null, streamingMaxRows);
  }

  // ---------------------------------------------------------------- SafeTab adaptive tables

  private Map<String, AdaptiveTablePolicy> adaptiveTables(Object value, String path)
      throws SQLException {
    Map<String, Object> m = mapping(value, path);
    Map<String, AdaptiveTablePolicy> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String name = e.getKey();
      String p = join(path, name);
      if (!name.matches("[A-Za-z][A-Za-z0-9_]*")) {
        throw problem(p, "an adaptive table name is a letter followed by letters, digits or _");
      }
      if (out.containsKey(AdaptiveTablePolicy.key(name))) {
        throw problem(p, "same adaptive table named twice (names are case-insensitive)");
      }
      out.put(AdaptiveTablePolicy.key(name), adaptiveTable(name, e.getValue(), p));
    }
    return out;
  }

  private AdaptiveTablePolicy adaptiveTable(String name, Object value, String path)
      throws SQLException {
    Map<String, Object> m = mapping(value, path);
    checkKeys(m, path, ADAPTIVE_KEYS);
    String pPath = join(path, "persons");
    Map<String, Object> persons = mapping(required(m, path, "persons",
        "{table: PERSONS, person: PID, sex: SEX, age: AGE}"), pPath);
    checkKeys(persons, pPath, ADAPTIVE_PERSONS_KEYS);
    String personsTable = requiredName(persons, pPath, "table", "the persons table", "table");
    String person = requiredName(persons, pPath, "person", "the person id column", "column");
    String sex = requiredName(persons, pPath, "sex", "the sex column", "column");
    String age = requiredName(persons, pPath, "age", "the age column (years)", "column");
    String iPath = join(path, "iterations");
    Map<String, Object> its = mapping(required(m, path, "iterations",
        "{table: PERSON_ITERATION, person: PID, iteration: ITERATION}"), iPath);
    checkKeys(its, iPath, ADAPTIVE_ITERATIONS_KEYS);
    String itTable =
        requiredName(its, iPath, "table", "the person-iteration mapping table", "table");
    String itPerson = requiredName(its, iPath, "person", "its person id column", "column");
    String itColumn = requiredName(its, iPath, "iteration", "its iteration code column", "column");

    String mechText = requiredName(m, path, "mechanism", "geometric or discrete_gaussian",
        "mechanism").toLowerCase(Locale.ROOT);
    if (!ADAPTIVE_MECHANISMS.contains(mechText)) {
      throw problem(join(path, "mechanism"), "unknown mechanism '" + mechText + "'"
          + PolicyProblems.didYouMean(mechText, ADAPTIVE_MECHANISMS) + "; use geometric (level "
          + "budgets are pure epsilons) or discrete_gaussian (level budgets are zCDP rhos)");
    }
    org.dpsql.adaptive.BaseMechanism mechanism = mechText.equals("geometric")
        ? org.dpsql.adaptive.BaseMechanism.GEOMETRIC
        : org.dpsql.adaptive.BaseMechanism.DISCRETE_GAUSSIAN;
    String budgetKey = mechanism == org.dpsql.adaptive.BaseMechanism.GEOMETRIC ? "epsilon" : "rho";

    BigDecimal gamma = decimal(required(m, path, "gamma", "the step-1 budget fraction in (0, 1), "
        + "e.g. 0.1"), join(path, "gamma"));
    if (gamma.signum() <= 0 || gamma.compareTo(BigDecimal.ONE) >= 0) {
      throw problem(join(path, "gamma"), "must be in (0, 1), got " + gamma);
    }
    String tPath = join(path, "thresholds");
    Object tv = required(m, path, "thresholds", "[theta1, theta2, theta3], increasing integers");
    if (!(tv instanceof List<?> tl) || tl.size() != 3) {
      throw problem(tPath, "must be three increasing integers [theta1, theta2, theta3], got "
          + describe(tv));
    }
    long[] theta = new long[3];
    for (int i = 0; i < 3; i++) {
      theta[i] = integer(tl.get(i), tPath + "[" + i + "]");
    }
    if (!(theta[0] < theta[1] && theta[1] < theta[2])) {
      throw problem(tPath, "must increase strictly (theta1 < theta2 < theta3), got ["
          + theta[0] + ", " + theta[1] + ", " + theta[2] + "]");
    }
    List<String> sexes = labels(required(m, path, "sexes", "the sex values, e.g. [M, F]"),
        join(path, "sexes"));

    // ages: {max, bins: {NAME: [lower ages]} x 3 | census, finest: [lower ages]}
    String aPath = join(path, "ages");
    Map<String, Object> ages = mapping(required(m, path, "ages",
        "{max: 115, bins: census} or {max: .., bins: {AGE4: [0, 18, 45, 65], ...}}"), aPath);
    checkKeys(ages, aPath, ADAPTIVE_AGES_KEYS);
    long maxAgeLong = integer(required(ages, aPath, "max", "the largest age counted"),
        join(aPath, "max"));
    if (maxAgeLong < 0 || maxAgeLong > 1000) {
      throw problem(join(aPath, "max"), "must be an age in years between 0 and 1000, got "
          + maxAgeLong);
    }
    int maxAge = (int) maxAgeLong;
    String bPath = join(aPath, "bins");
    Object binsValue = required(ages, aPath, "bins", "census, or three binnings {NAME: [lower "
        + "ages], ...} from coarse to fine");
    List<String> binNames = new ArrayList<>();
    List<List<Integer>> binLowers = new ArrayList<>();
    if (binsValue instanceof String str && str.strip().equalsIgnoreCase("census")) {
      binNames.addAll(List.of("AGE4", "AGE9", "AGE23"));
      binLowers.add(org.dpsql.adaptive.AgeBinning.AGE4_LOWER_YEARS);
      binLowers.add(org.dpsql.adaptive.AgeBinning.AGE9_LOWER_YEARS);
      binLowers.add(org.dpsql.adaptive.AgeBinning.AGE23_LOWER_YEARS);
    } else {
      if (!(binsValue instanceof Map)) {
        throw problem(bPath, "must be census or a mapping of three binnings {NAME: [lower ages]}"
            + ", got " + describe(binsValue));
      }
      Map<String, Object> bins = mapping(binsValue, bPath);
      if (bins.size() != 3) {
        throw problem(bPath, "needs exactly three binnings, coarse to fine (used for noisy "
            + "totals in [theta1, theta2), [theta2, theta3) and >= theta3), got " + bins.size());
      }
      for (Map.Entry<String, Object> b : bins.entrySet()) {
        String nPath = join(bPath, b.getKey());
        if (!b.getKey().matches("[A-Za-z][A-Za-z0-9_]*")) {
          throw problem(nPath, "a binning name is a letter followed by letters, digits or _");
        }
        binNames.add(b.getKey().toUpperCase(Locale.ROOT));
        binLowers.add(years(b.getValue(), nPath));
      }
    }
    List<Integer> finest;
    if (ages.containsKey("finest")) {
      finest = years(ages.get("finest"), join(aPath, "finest"));
    } else {
      java.util.TreeSet<Integer> union = new java.util.TreeSet<>();
      binLowers.forEach(union::addAll);
      finest = List.copyOf(union);
    }
    if (finest.get(finest.size() - 1) > maxAge) {
      throw problem(join(aPath, "max"), "must be at least the lowest age of the last age "
          + "category, " + finest.get(finest.size() - 1) + ", got " + maxAge);
    }
    List<org.dpsql.adaptive.AgeBinning> binnings = new ArrayList<>();
    for (int i = 0; i < binNames.size(); i++) {
      try {
        binnings.add(org.dpsql.adaptive.AgeBinning.ofYears(binNames.get(i), finest,
            binLowers.get(i)));
      } catch (IllegalArgumentException ex) {
        throw problem(binsValue instanceof Map ? join(bPath, binNames.get(i)) : bPath,
            ex.getMessage() + (ages.containsKey("finest") ? " (see " + join(aPath, "finest") + ")"
                : ""));
      }
    }

    // levels
    String lPath = join(path, "levels");
    Map<String, Object> levelsMap = mapping(required(m, path, "levels", "a mapping of population "
        + "group levels {NAME: {geography, geographies, iterations, budget, stability}}"), lPath);
    if (levelsMap.isEmpty()) {
      throw problem(lPath, "declares no population level");
    }
    List<org.dpsql.adaptive.PopulationLevel> levels = new ArrayList<>();
    List<AdaptiveTablePolicy.Column> geoColumns = new ArrayList<>();
    for (Map.Entry<String, Object> e : levelsMap.entrySet()) {
      String lvPath = join(lPath, e.getKey());
      if (!e.getKey().matches("[A-Za-z][A-Za-z0-9_]*")) {
        throw problem(lvPath, "a level name is a letter followed by letters, digits or _");
      }
      Map<String, Object> lv = mapping(e.getValue(), lvPath);
      checkKeys(lv, lvPath, ADAPTIVE_LEVEL_KEYS);
      String geoColumn = lv.containsKey("geography")
          ? scalarName(lv.get("geography"), join(lvPath, "geography"), "column") : null;
      List<String> geographies;
      if (lv.containsKey("geographies")) {
        geographies = labels(lv.get("geographies"), join(lvPath, "geographies"));
      } else if (geoColumn == null) {
        geographies = List.of("ALL");
      } else {
        throw problem(join(lvPath, "geographies"), "missing; list the geographic units of "
            + geoColumn + " this level tabulates (its public domain: units not listed are not "
            + "counted)");
      }
      if (geoColumn == null && geographies.size() != 1) {
        throw problem(join(lvPath, "geographies"), "a level without a geography column has one "
            + "geographic unit (the whole table), so list one name, got " + geographies.size());
      }
      List<String> levelIterations = labels(required(lv, lvPath, "iterations",
          "the characteristic iteration codes of this level"), join(lvPath, "iterations"));
      List<String> totalOnly = lv.containsKey("total_only")
          ? labels(lv.get("total_only"), join(lvPath, "total_only")) : List.of();
      for (int i = 0; i < totalOnly.size(); i++) {
        if (!levelIterations.contains(totalOnly.get(i))) {
          throw problem(join(lvPath, "total_only") + "[" + i + "]", "'" + totalOnly.get(i)
              + "' is not one of the level's iterations");
        }
      }
      String bgPath = join(lvPath, "budget");
      Map<String, Object> budget = mapping(required(lv, lvPath, "budget",
          "{" + budgetKey + ": ...}"), bgPath);
      checkKeys(budget, bgPath, List.of(budgetKey));
      BigDecimal levelBudget = positive(required(budget, bgPath, budgetKey,
          "the level's " + budgetKey), join(bgPath, budgetKey));
      int stability = positiveInt(required(lv, lvPath, "stability", "the stability: the most "
          + "groups of this level one person is counted in (each person keeps the first ones in "
          + "the order of 'iterations')"), join(lvPath, "stability"));
      try {
        levels.add(new org.dpsql.adaptive.PopulationLevel(e.getKey().toUpperCase(Locale.ROOT),
            levelBudget, stability, geographies, levelIterations,
            new java.util.LinkedHashSet<>(totalOnly)));
      } catch (IllegalArgumentException ex) {
        throw problem(lvPath, ex.getMessage());
      }
      geoColumns.add(geoColumn == null ? null : AdaptiveTablePolicy.Column.named(geoColumn));
    }
    org.dpsql.adaptive.AdaptiveTabulationSpec spec;
    try {
      spec = new org.dpsql.adaptive.AdaptiveTabulationSpec(mechanism, levels, gamma, theta[0],
          theta[1], theta[2], sexes, binnings);
    } catch (IllegalArgumentException ex) {
      throw problem(path, ex.getMessage());
    }
    return new AdaptiveTablePolicy(name, new AdaptiveTablePolicy.Table(null, personsTable),
        AdaptiveTablePolicy.Column.named(person), AdaptiveTablePolicy.Column.named(sex),
        AdaptiveTablePolicy.Column.named(age), new AdaptiveTablePolicy.Table(null, itTable),
        AdaptiveTablePolicy.Column.named(itPerson), AdaptiveTablePolicy.Column.named(itColumn),
        geoColumns, binLowers, finest, maxAge, false, spec);
  }

  /** A non-empty list of distinct labels (strings, or numbers written in plain form). */
  private List<String> labels(Object value, String path) throws SQLException {
    if (!(value instanceof List<?> raw) || raw.isEmpty()) {
      throw problem(path, "must be a non-empty list of values, got " + describe(value));
    }
    List<String> out = new ArrayList<>();
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (int i = 0; i < raw.size(); i++) {
      Object v = raw.get(i);
      String vPath = path + "[" + i + "]";
      String label;
      if (v instanceof String str) {
        label = str;
      } else if (v instanceof BigDecimal b) {
        label = b.toPlainString();
      } else if (v instanceof Number) {
        label = decimal(v, vPath).toPlainString();
      } else {
        throw problem(vPath, "must be a single value (a string or a number), got " + describe(v));
      }
      Integer first = seen.putIfAbsent(label, i);
      if (first != null) {
        throw problem(vPath, "duplicate value '" + label + "' (same as " + path + "[" + first
            + "])");
      }
      out.add(label);
    }
    return out;
  }

  /** A non-empty list of ages in years. */
  private List<Integer> years(Object value, String path) throws SQLException {
    if (!(value instanceof List<?> raw) || raw.isEmpty()) {
      throw problem(path, "must be a non-empty list of lower ages in years, starting at 0, e.g. "
          + "[0, 18, 45, 65], got " + describe(value));
    }
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      long y = integer(raw.get(i), path + "[" + i + "]");
      if (y < 0 || y > 1000) {
        throw problem(path + "[" + i + "]", "must be an age in years between 0 and 1000, got "
            + y);
      }
      out.add((int) y);
    }
    return out;
  }

  private long integer(Object value, String path) throws SQLException {
    BigDecimal v = decimal(value, path);
    try {
      return v.longValueExact();
    } catch (ArithmeticException e) {
      throw problem(path, "must be an integer, got " + v);
    }
  }

  // ---------------------------------------------------------------- published synopses

  private Map<String, SynopsisSpec> synopses(Object value, String path, String accounting)
      throws SQLException {
    Map<String, Object> m = mapping(value, path);
    Map<String, SynopsisSpec> out = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String name = e.getKey();
      String p = join(path, name);
      if (!name.matches("[A-Za-z][A-Za-z0-9_]*")) {
        throw problem(p, "a synopsis name is a letter followed by letters, digits or _");
      }
      Map<String, Object> s = mapping(e.getValue(), p);
      checkKeys(s, p, SYNOPSIS_KEYS);
      String table = text(required(s, p, "table", "the private table's name"), join(p, "table"));
      String workload = text(required(s, p, "workload", "a DPSQL.WORKLOAD family, e.g. "
          + "RANGE_MARGINALS(AGE, REGION)"), join(p, "workload"));
      BudgetAmount budget = amount(required(s, p, "budget", example(accounting)),
          join(p, "budget"), accounting);
      String mechanism = s.containsKey("mechanism")
          ? text(s.get("mechanism"), join(p, "mechanism")) : "auto";
      out.put(name.toUpperCase(Locale.ROOT), new SynopsisSpec(name, table, workload, budget,
          mechanism));
    }
    return out;
  }

  private String text(Object v, String path) throws SQLException {
    if (!(v instanceof String) || ((String) v).isBlank()) {
      throw problem(path, "must be a non-empty text, got " + describe(v));
    }
    return ((String) v).strip();
  }

  // ---------------------------------------------------------------- budget

  private BudgetPolicy budget(Object value, String path) throws SQLException {
    Map<String, Object> m = mapping(value, path);
    checkKeys(m, path, BUDGET_KEYS);
    String accPath = join(path, "accounting");
    Object acc = required(m, path, "accounting", "one of " + String.join(", ",
        BudgetPolicy.ACCOUNTINGS));
    if (!(acc instanceof String)) {
      throw problem(accPath, "must be one of " + String.join(", ", BudgetPolicy.ACCOUNTINGS)
          + ", got " + describe(acc));
    }
    String accounting = ((String) acc).strip().toLowerCase(Locale.ROOT);
    if (!BudgetPolicy.ACCOUNTINGS.contains(accounting)) {
      throw problem(accPath, "unknown accounting '" + acc + "'"
          + PolicyProblems.didYouMean(accounting, BudgetPolicy.ACCOUNTINGS)
          + "; use one of " + String.join(", ", BudgetPolicy.ACCOUNTINGS));
    }
    String perPath = join(path, "per_connection");
    String defPath = join(path, "default_query");
    BudgetAmount per = amount(required(m, path, "per_connection", example(accounting)), perPath,
        accounting);
    BudgetAmount def = amount(required(m, path, "default_query", example(accounting)), defPath,
        accounting);
    exceeds(def.epsilon(), per.epsilon(), defPath, perPath, "epsilon");
    exceeds(def.delta(), per.delta(), defPath, perPath, "delta");
    exceeds(def.rho(), per.rho(), defPath, perPath, "rho");
    return new BudgetPolicy(accounting, per, def);
  }

  private void exceeds(BigDecimal q, BigDecimal total, String qPath, String totalPath, String key)
      throws SQLException {
    if (q != null && total != null && q.compareTo(total) > 0) {
      throw problem(join(qPath, key), "must not exceed " + join(totalPath, key) + " ("
          + total + "), got " + q);
    }
  }

  private static String example(String accounting) {
    switch (accounting) {
      case BudgetPolicy.PURE:
        return "{epsilon: ...}";
      case BudgetPolicy.APPROX:
        return "{epsilon: ..., delta: ...}";
      default:
        return "{rho: ...}";
    }
  }

  private BudgetAmount amount(Object value, String path, String accounting) throws SQLException {
    Map<String, Object> m = mapping(value, path);
    checkKeys(m, path, AMOUNT_KEYS);
    String under = " under accounting: " + accounting;
    switch (accounting) {
      case BudgetPolicy.PURE:
        forbid(m, path, "delta", "not used" + under + " (use accounting: approx for "
            + "(epsilon, delta))");
        forbid(m, path, "rho", "not used" + under + " (use epsilon, or accounting: zcdp)");
        requireKey(m, path, "epsilon", "required" + under);
        break;
      case BudgetPolicy.APPROX:
        forbid(m, path, "rho", "not used" + under + " (use accounting: zcdp for rho)");
        requireKey(m, path, "epsilon", "required" + under);
        requireKey(m, path, "delta", "required" + under);
        break;
      default:
        forbid(m, path, "epsilon", "not used" + under + " (give rho; epsilon is reported from rho "
            + "and delta)");
        requireKey(m, path, "rho", "required" + under);
        break;
    }
    BigDecimal epsilon = m.containsKey("epsilon") ? positive(m.get("epsilon"),
        join(path, "epsilon")) : null;
    BigDecimal delta = m.containsKey("delta") ? probability(m.get("delta"), join(path, "delta"))
        : null;
    BigDecimal rho = m.containsKey("rho") ? positive(m.get("rho"), join(path, "rho")) : null;
    return new BudgetAmount(epsilon, delta, rho);
  }

  private void forbid(Map<String, Object> m, String path, String key, String reason)
      throws SQLException {
    if (m.containsKey(key)) {
      throw problem(join(path, key), reason);
    }
  }

  private void requireKey(Map<String, Object> m, String path, String key, String reason)
      throws SQLException {
    if (!m.containsKey(key)) {
      throw problem(join(path, key), "missing; " + reason);
    }
  }

  private BigDecimal positive(Object value, String path) throws SQLException {
    BigDecimal v = decimal(value, path);
    if (v.signum() <= 0) {
      throw problem(path, "must be > 0, got " + v);
    }
    return v;
  }

  private BigDecimal probability(Object value, String path) throws SQLException {
    BigDecimal v = decimal(value, path);
    if (v.signum() <= 0 || v.compareTo(BigDecimal.ONE) >= 0) {
      throw problem(path, "must be in (0, 1), got " + v);
    }
    return v;
  }

  // ---------------------------------------------------------------- tables

  private Map<String, TablePolicy> tables(Object value, String path) throws SQLException {
    Map<String, Object> m = mapping(value, path);
    Map<String, TablePolicy> out = new LinkedHashMap<>();
    Map<String, String> seen = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String name = e.getKey();
      String tPath = join(path, name);
      checkName(name, tPath, "table");
      String key = TablePolicy.key(name);
      if (seen.containsKey(key)) {
        throw problem(tPath, "same table as " + join(path, seen.get(key))
            + " (table names are case-insensitive)");
      }
      seen.put(key, name);
      out.put(key, table(name, e.getValue(), tPath));
    }
    return out;
  }

  private TablePolicy table(String name, Object value, String path) throws SQLException {
    if (value == null) {
      throw problem(path, "needs settings: {public: true}, or {privacy_unit: ..., "
          + "max_rows_per_unit: ..., columns: {...}}");
    }
    Map<String, Object> m = mapping(value, path);
    checkKeys(m, path, TABLE_KEYS);
    boolean isPublic = m.containsKey("public") && bool(m.get("public"), join(path, "public"));
    if (isPublic) {
      for (String k : m.keySet()) {
        if (!k.equals("public")) {
          throw problem(join(path, k), "not allowed on a public table (public: true takes no "
              + "other keys)");
        }
      }
      return TablePolicy.publicTable(name, null);
    }
    String unitPath = join(path, "privacy_unit");
    Object unit = required(m, path, "privacy_unit", "the column that identifies one protected "
        + "individual, or ROW");
    String unitName = scalarName(unit, unitPath, "privacy_unit");
    boolean unitIsRow = unitName.equalsIgnoreCase(ROW_UNIT);
    String maxPath = join(path, "max_rows_per_unit");
    int maxRows;
    if (unitIsRow) {
      if (m.containsKey("max_rows_per_unit")) {
        int n = positiveInt(m.get("max_rows_per_unit"), maxPath);
        if (n != 1) {
          throw problem(maxPath, "must be absent or 1 when privacy_unit is ROW (each row is its "
              + "own unit), got " + n);
        }
      }
      maxRows = 1;
    } else {
      maxRows = positiveInt(required(m, path, "max_rows_per_unit",
          "a positive integer bounding the rows of one " + unitName), maxPath);
    }
    Map<String, ColumnPolicy> columns = columns(m.get("columns"), join(path, "columns"));
    Map<String, List<String>> hierarchies =
        hierarchies(m.get("hierarchies"), join(path, "hierarchies"), columns, path);
    Bounding bounding = Bounding.PER_QUERY;
    if (m.containsKey("bounding")) {
      String b = scalarName(m.get("bounding"), join(path, "bounding"), "bounding");
      if (b.equalsIgnoreCase("per_query")) {
        bounding = Bounding.PER_QUERY;
      } else if (b.equalsIgnoreCase("snapshot")) {
        bounding = Bounding.SNAPSHOT;
      } else {
        throw problem(join(path, "bounding"), "must be per_query or snapshot, got " + b);
      }
    }
    AnswerRange answerRange = null;
    if (m.containsKey("answer_range")) {
      String rPath = join(path, "answer_range");
      if (!(m.get("answer_range") instanceof List<?> list) || list.size() != 2) {
        throw problem(rPath, "must be [lo, hi], two integers");
      }
      BigDecimal lo = decimal(list.get(0), rPath);
      BigDecimal hi = decimal(list.get(1), rPath);
      try {
        answerRange = new AnswerRange(lo.longValueExact(), hi.longValueExact());
      } catch (ArithmeticException e) {
        throw problem(rPath, "must be two integers, got [" + lo + ", " + hi + "]");
      } catch (IllegalArgumentException e) {
        throw problem(rPath, e.getMessage());
      }
    }
    Map<String, List<String>> spatial = spatial(m.get("spatial"), join(path, "spatial"), columns, path);
    String shared = null;
    if (m.containsKey("unit")) {
      String sPath = join(path, "unit");
      shared = scalarName(m.get("unit"), sPath, "unit");
      checkName(shared, sPath, "unit");
      if (unitIsRow) {
        throw problem(sPath, "a table whose unit is ROW shares no unit with another table: "
            + "its rows are not people that other tables describe");
      }
    }
    return new TablePolicy(name, null, false, unitIsRow, unitIsRow ? null : unitName, maxRows,
        columns, hierarchies, bounding, answerRange, spatial, shared, null);
  }

  private Map<String, ColumnPolicy> columns(Object value, String path) throws SQLException {
    Map<String, ColumnPolicy> out = new LinkedHashMap<>();
    if (value == null) {
      return out;
    }
    Map<String, Object> m = mapping(value, path);
    Map<String, String> seen = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String name = e.getKey();
      String cPath = join(path, name);
      checkName(name, cPath, "column");
      String key = TablePolicy.key(name);
      if (seen.containsKey(key)) {
        throw problem(cPath, "same column as " + join(path, seen.get(key))
            + " (column names are case-insensitive)");
      }
      seen.put(key, name);
      out.put(key, column(name, e.getValue(), cPath));
    }
    return out;
  }

  private ColumnPolicy column(String name, Object value, String path) throws SQLException {
    if (value == null || (value instanceof Map && ((Map<?, ?>) value).isEmpty())) {
      throw problem(path, "no domain or bounds given; " + DOMAIN_HELP);
    }
    Map<String, Object> m = mapping(value, path);
    checkKeys(m, path, COLUMN_KEYS);
    boolean hasValues = m.containsKey("values");
    boolean hasMin = m.containsKey("min");
    boolean hasMax = m.containsKey("max");
    boolean hasBin = m.containsKey("bin");
    if (m.containsKey("keys") || m.containsKey("max_groups_per_unit")) {
      return privateKeys(name, m, path, hasValues ? "values" : hasMin ? "min" : hasMax ? "max"
          : hasBin ? "bin" : null);
    }
    if (hasValues && (hasMin || hasMax || hasBin)) {
      String other = hasMin ? "min" : hasMax ? "max" : "bin";
      throw problem(join(path, other), "cannot be combined with values: a column has either a "
          + "categorical domain (values) or an ordered one (min, max, bin)");
    }
    CategoricalDomain categorical = null;
    OrderedDomain ordered = null;
    Clamp clamp = null;
    if (hasValues) {
      categorical = values(m.get("values"), join(path, "values"));
    }
    if (m.get("min") instanceof String || m.get("max") instanceof String
        || m.get("bin") instanceof String) {
      if (m.containsKey("clamp")) {
        throw problem(join(path, "clamp"), "a time domain cannot have a clamp");
      }
      return ColumnPolicy.ofTime(name, Types.OTHER, time(m, path));
    }
    if (hasMin || hasMax || hasBin) {
      if (!hasMin) {
        throw problem(join(path, "min"), "missing; an ordered domain needs min and max");
      }
      if (!hasMax) {
        throw problem(join(path, "max"), "missing; an ordered domain needs min and max");
      }
      ordered = ordered(m, path);
    }
    if (m.containsKey("clamp")) {
      clamp = clamp(m.get("clamp"), join(path, "clamp"));
    }
    return new ColumnPolicy(name, Types.OTHER, Optional.ofNullable(categorical),
        Optional.ofNullable(ordered), Optional.ofNullable(clamp));
  }

  /**
   * A column declared {@code keys: private} ({@code max_groups_per_unit} optional, default 1),
   * with an optional clamp; {@code domainKey} is a domain key also given (an error), or null.
   */
  private ColumnPolicy privateKeys(String name, Map<String, Object> m, String path,
      String domainKey) throws SQLException {
    if (!m.containsKey("keys")) {
      throw problem(join(path, "max_groups_per_unit"), "only applies to a column declared keys: "
          + "private; add keys: private or remove max_groups_per_unit");
    }
    if (!"private".equals(m.get("keys"))) {
      throw problem(join(path, "keys"), "the only value is private (a group key without a "
          + "public domain, whose groups are selected privately), got " + describe(m.get("keys")));
    }
    if (domainKey != null) {
      throw problem(join(path, domainKey), "cannot be combined with keys: private: a column either "
          + "lists its public domain or has its groups selected privately");
    }
    int groups = 1;
    if (m.containsKey("max_groups_per_unit")) {
      String gPath = join(path, "max_groups_per_unit");
      groups = positiveInt(m.get("max_groups_per_unit"), gPath);
      if (groups > PrivateKeys.MAX_GROUPS_PER_UNIT) {
        throw problem(gPath, "at most " + PrivateKeys.MAX_GROUPS_PER_UNIT + ", got " + groups);
      }
    }
    Clamp clamp = m.containsKey("clamp") ? clamp(m.get("clamp"), join(path, "clamp")) : null;
    return ColumnPolicy.ofPrivateKeys(name, Types.OTHER, new PrivateKeys(groups),
        Optional.ofNullable(clamp));
  }

  private CategoricalDomain values(Object value, String path) throws SQLException {
    if (value instanceof Map<?, ?> groups && !groups.isEmpty()) {
      // values nested in the level above of a hierarchy: {NY: [Kings, Queens], CA: [...]}
      List<Object> all = new ArrayList<>();
      List<Object> within = new ArrayList<>();
      List<Object> written = new ArrayList<>();
      for (Map.Entry<?, ?> g : groups.entrySet()) {
        String gPath = join(path, String.valueOf(g.getKey()));
        List<Object> part = values(g.getValue(), gPath).values();
        all.addAll(part);
        written.addAll((List<?>) g.getValue());
        for (int i = 0; i < part.size(); i++) {
          within.add(g.getKey() instanceof Number n ? decimal(n, gPath) : String.valueOf(g.getKey()));
        }
      }
      checkDistinct(all, path, written);
      return new CategoricalDomain(all, within);
    }
    if (!(value instanceof List)) {
      throw problem(path, "must be a list of values, e.g. [N, S, E, W], or, for a column of a "
          + "hierarchy, its values by the value of the level above, e.g. {NY: [Kings, Queens], "
          + "CA: [Alameda]}; got " + describe(value));
    }
    List<?> raw = (List<?>) value;
    if (raw.isEmpty()) {
      throw problem(path, "must list at least one value");
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      Object v = raw.get(i);
      String vPath = path + "[" + i + "]";
      if (v instanceof String) {
        out.add(v);
      } else if (v instanceof YamlBool) {
        out.add(((YamlBool) v).value());
      } else if (v instanceof Number) {
        out.add(decimal(v, vPath));
      } else {
        throw problem(vPath, "must be a single value (a string or a number), got " + describe(v));
      }
    }
    checkDistinct(out, path, raw);
    return new CategoricalDomain(out);
  }

  /** Refuses two equal values (numbers compared by value, so 1 and 1.0 are equal). */
  void checkDistinct(List<Object> values, String path, List<?> written) throws SQLException {
    Map<Object, Integer> seen = new LinkedHashMap<>();
    for (int i = 0; i < values.size(); i++) {
      Object v = values.get(i);
      Object k = v instanceof BigDecimal ? CategoricalDomain.normalize((BigDecimal) v) : v;
      Integer first = seen.putIfAbsent(k, i);
      if (first != null) {
        throw problem(path + "[" + i + "]", "duplicate value " + describe(written.get(i))
            + " (same as " + path + "[" + first + "])");
      }
    }
  }

  /** A time domain {min: 2024-01-01, max: 2025-12-31, bin: 1 day} (see {@link TimeDomain}). */
  private TimeDomain time(Map<String, Object> m, String path) throws SQLException {
    java.time.LocalDateTime[] ends = new java.time.LocalDateTime[2];
    String[] keys = {"min", "max"};
    for (int i = 0; i < 2; i++) {
      Object v = m.get(keys[i]);
      if (v == null) {
        throw problem(join(path, keys[i]), "missing; a time domain needs min, max and bin, e.g. "
            + "{min: 2024-01-01, max: 2025-12-31, bin: 1 day}");
      }
      ends[i] = v instanceof String text ? TimeDomain.parseInstant(text) : null;
      if (ends[i] == null) {
        throw problem(join(path, keys[i]), "must be a date (2024-01-01) or a date and time "
            + "(2024-01-01 06:00:00), got " + describe(v));
      }
    }
    Object b = m.get("bin");
    TimeDomain.Unit unit = b instanceof String text ? TimeDomain.parseBin(text) : null;
    if (unit == null) {
      throw problem(join(path, "bin"), (b == null ? "missing" : "got " + describe(b))
          + "; a time domain's bin is one of 1 hour, 1 day, 1 week, 1 month, 1 quarter, 1 year");
    }
    java.time.LocalDateTime start = TimeDomain.binStartOf(ends[0], unit);
    if (!start.equals(ends[0])) {
      throw problem(join(path, "min"), "must start a " + unit.sqlName() + " bin ("
          + (unit == TimeDomain.Unit.WEEK ? "weeks start on Mondays" : "the first instant of the "
          + unit.sqlName()) + "), e.g. " + TimeDomain.format(start) + ", got "
          + TimeDomain.format(ends[0]));
    }
    if (ends[1].isBefore(ends[0])) {
      throw problem(join(path, "min"), "must be <= max, got min " + TimeDomain.format(ends[0])
          + " and max " + TimeDomain.format(ends[1]));
    }
    try {
      return new TimeDomain(ends[0], ends[1], unit);
    } catch (IllegalArgumentException e) {
      throw problem(join(path, "bin"), e.getMessage() + "; use a larger bin or a narrower "
          + "[min, max]");
    }
  }

  private OrderedDomain ordered(Map<String, Object> m, String path) throws SQLException {
    BigDecimal min = decimal(m.get("min"), join(path, "min"));
    BigDecimal max = decimal(m.get("max"), join(path, "max"));
    BigDecimal bin = BigDecimal.ONE;
    if (m.containsKey("bin")) {
      bin = decimal(m.get("bin"), join(path, "bin"));
      if (bin.signum() <= 0) {
        throw problem(join(path, "bin"), "must be > 0, got " + bin);
      }
    }
    if (min.compareTo(max) >= 0) {
      throw problem(join(path, "min"), "must be < max, got min " + min + " and max " + max);
    }
    BigDecimal cells = OrderedDomain.cellCount(min, max, bin);
    if (cells.compareTo(BigDecimal.valueOf(OrderedDomain.MAX_CELLS)) > 0) {
      throw problem(join(path, "bin"), "the domain would have " + cells.toPlainString()
          + " cells (floor((max - min) / bin) + 1), more than the limit of "
          + OrderedDomain.MAX_CELLS + "; use a larger bin or a narrower [min, max]");
    }
    return new OrderedDomain(min, max, bin);
  }

  private Clamp clamp(Object value, String path) throws SQLException {
    if (!(value instanceof List) || ((List<?>) value).size() != 2) {
      throw problem(path, "must be a list [lo, hi] of two numbers, got " + describe(value));
    }
    List<?> l = (List<?>) value;
    BigDecimal lo = decimal(l.get(0), path + "[0]");
    BigDecimal hi = decimal(l.get(1), path + "[1]");
    if (lo.compareTo(hi) > 0) {
      throw problem(path, "lo must be <= hi, got [" + lo + ", " + hi + "]");
    }
    return new Clamp(lo, hi);
  }

  /**
   * {@code spatial: {NAME: [X, Y]}}: a spatial index over two columns with ordered domains, whose
   * bins form the base grid (x bins × y bins) of private spatial range counts (HTF).
   */
  private Map<String, List<String>> spatial(
      Object value, String path, Map<String, ColumnPolicy> columns, String tablePath)
      throws SQLException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (value == null) {
      return out;
    }
    Map<String, Object> m = mapping(value, path);
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String name = e.getKey();
      String sPath = join(path, name);
      checkName(name, sPath, "spatial index");
      if (out.containsKey(TablePolicy.key(name))) {
        throw problem(sPath, "same spatial index named twice (names are case-insensitive)");
      }
      if (!(e.getValue() instanceof List<?> raw) || raw.size() != 2) {
        throw problem(sPath, "must be two columns [X, Y] with ordered domains (min, max, bin), "
            + "e.g. [LON, LAT], got " + describe(e.getValue()));
      }
      List<String> members = new ArrayList<>();
      long cells = 1;
      for (int i = 0; i < 2; i++) {
        String mPath = sPath + "[" + i + "]";
        String member = scalarName(raw.get(i), mPath, "column");
        ColumnPolicy c = listedColumn(member, mPath, columns, tablePath, "min, max and bin");
        if (c.ordered().isEmpty()) {
          throw problem(mPath, member + " needs an ordered domain {min, max, bin}: its bins are "
              + "the cells of the spatial grid");
        }
        if (members.contains(c.name())) {
          throw problem(mPath, member + " is both axes; name an x and a y column");
        }
        members.add(c.name());
        cells *= c.domainSize();
      }
      if (cells > TablePolicy.MAX_SPATIAL_CELLS) {
        throw problem(sPath, "the grid has " + cells + " cells, more than "
            + TablePolicy.MAX_SPATIAL_CELLS + " (2048 x 2048); use wider bins");
      }
      out.put(TablePolicy.key(name), members);
    }
    return out;
  }

  private Map<String, List<String>> hierarchies(
      Object value, String path, Map<String, ColumnPolicy> columns, String tablePath)
      throws SQLException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (value == null) {
      return out;
    }
    Map<String, Object> m = mapping(value, path);
    Map<String, String> seen = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String name = e.getKey();
      String hPath = join(path, name);
      checkName(name, hPath, "hierarchy");
      String key = TablePolicy.key(name);
      if (seen.containsKey(key)) {
        throw problem(hPath, "same hierarchy as " + join(path, seen.get(key))
            + " (names are case-insensitive)");
      }
      seen.put(key, name);
      if (!(e.getValue() instanceof List) || ((List<?>) e.getValue()).isEmpty()) {
        throw problem(hPath, "must be a non-empty list of columns from coarse to fine, e.g. "
            + "[STATE, COUNTY, TRACT], got " + describe(e.getValue()));
      }
      List<?> raw = (List<?>) e.getValue();
      List<String> members = new ArrayList<>();
      Map<String, Integer> seenMembers = new LinkedHashMap<>();
      for (int i = 0; i < raw.size(); i++) {
        String mPath = hPath + "[" + i + "]";
        String member = scalarName(raw.get(i), mPath, "column");
        ColumnPolicy c = listedColumn(member, mPath, columns, tablePath, "values or min/max");
        if (!c.hasDomain()) {
          throw problem(mPath, member + " has no domain (only a clamp); give it values or "
              + "min/max to use it in a hierarchy");
        }
        if (c.time().isPresent()) {
          throw problem(mPath, member + " has a time domain; hierarchies take columns with "
              + "values or numeric min/max (group a time series by DATE_TRUNC instead)");
        }
        Integer first = seenMembers.putIfAbsent(TablePolicy.key(member), i);
        if (first != null) {
          throw problem(mPath, member + " appears twice (also at " + hPath + "[" + first + "])");
        }
        members.add(c.name());
        checkNesting(c, i == 0 ? null : listedColumn(scalarName(raw.get(i - 1), mPath, "column"),
            mPath, columns, tablePath, "values or min/max"), mPath, tablePath);
      }
      out.put(key, members);
    }
    for (ColumnPolicy c : columns.values()) {
      if (c.categorical().isPresent() && c.categorical().get().isNested()
          && out.values().stream().noneMatch(h -> h.indexOf(c.name()) > 0)) {
        throw problem(join(join(tablePath, "columns"), c.name()) + ".values", "lists its values "
            + "by the value of a coarser column, but no hierarchy names " + c.name() + " below "
            + "another column; add one under hierarchies (e.g. GEO: [STATE, " + c.name() + "]) "
            + "or list the values plainly");
      }
    }
    return out;
  }

  /**
   * Checks that a level whose values are listed by the value of the level above ({@code up})
   * names only values of that level.
   */
  private void checkNesting(ColumnPolicy c, ColumnPolicy up, String path, String tablePath)
      throws SQLException {
    if (c.categorical().isEmpty() || !c.categorical().get().isNested()) {
      return;
    }
    String valuesPath = join(join(tablePath, "columns"), c.name()) + ".values";
    if (up == null || up.categorical().isEmpty()) {
      throw problem(valuesPath, c.name() + " lists its values by the value of the level above, "
          + "but in " + path + " it has no level above with listed values");
    }
    java.util.Set<String> parents = new java.util.HashSet<>();
    for (Object v : up.categorical().get().values()) {
      parents.add(v instanceof BigDecimal b ? b.stripTrailingZeros().toPlainString()
          : String.valueOf(v));
    }
    for (Object w : new java.util.LinkedHashSet<>(c.categorical().get().within())) {
      String label = w instanceof BigDecimal b ? b.stripTrailingZeros().toPlainString()
          : String.valueOf(w);
      if (!parents.contains(label)) {
        throw problem(valuesPath + "." + label, label + " is not a value of " + up.name()
            + ", the level above " + c.name() + " in " + path.replaceAll("\\[\\d+\\]$", "")
            + "; group " + c.name() + "'s values by values of " + up.name());
      }
    }
  }

  /**
   * The listed column {@code member} names (a member of a spatial index or hierarchy), else a
   * problem at {@code path} saying to list it under the table's columns with {@code needs}.
   */
  private ColumnPolicy listedColumn(String member, String path, Map<String, ColumnPolicy> columns,
      String tablePath, String needs) throws SQLException {
    ColumnPolicy c = columns.get(TablePolicy.key(member));
    if (c == null) {
      throw problem(path, member + " is not a listed column"
          + PolicyProblems.didYouMean(member, columnNames(columns))
          + "; list it under " + join(tablePath, "columns") + " with " + needs);
    }
    return c;
  }

  private static List<String> columnNames(Map<String, ColumnPolicy> columns) {
    List<String> names = new ArrayList<>();
    columns.values().forEach(c -> names.add(c.name()));
    return names;
  }

  // ---------------------------------------------------------------- scalars and structure

  /** A mapping with string keys; names written as numbers or booleans keep their text. */
  private Map<String, Object> mapping(Object value, String path) throws SQLException {
    if (!(value instanceof Map)) {
      throw problem(path, "must be a mapping (key: value), got " + describe(value));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
      Object k = e.getKey();
      String key;
      if (k instanceof String || k instanceof YamlBool || k instanceof Number) {
        key = k instanceof BigDecimal ? ((BigDecimal) k).toPlainString() : k.toString();
      } else {
        throw problem(path, "has a key that is not a name: " + describe(k));
      }
      if (out.containsKey(key)) {
        throw problem(join(path, key), "appears twice");
      }
      out.put(key, e.getValue());
    }
    return out;
  }

  private void checkKeys(Map<String, Object> m, String path, List<String> allowed)
      throws SQLException {
    for (String k : m.keySet()) {
      if (!allowed.contains(k)) {
        throw problem(join(path, k), "unknown key" + PolicyProblems.didYouMean(k, allowed)
            + "; valid keys here: " + String.join(", ", allowed));
      }
    }
  }

  private Object required(Map<String, Object> m, String path, String key, String what)
      throws SQLException {
    if (!m.containsKey(key)) {
      throw problem(join(path, key), "missing; expected " + what);
    }
    Object v = m.get(key);
    if (v == null) {
      throw problem(join(path, key), "is empty; expected " + what);
    }
    return v;
  }

  private boolean bool(Object value, String path) throws SQLException {
    if (value instanceof YamlBool) {
      return ((YamlBool) value).value();
    }
    throw problem(path, "must be true or false, got " + describe(value));
  }

  private void checkName(String name, String path, String kind) throws SQLException {
    if (name.isBlank()) {
      throw problem(path, "empty " + kind + " name");
    }
  }

  /** {@code m.key}, required, as a {@code kind} name (table, column, ...). */
  private String requiredName(Map<String, Object> m, String path, String key, String hint,
      String kind) throws SQLException {
    return scalarName(required(m, path, key, hint), join(path, key), kind);
  }

  private String scalarName(Object value, String path, String kind) throws SQLException {
    String name;
    if (value instanceof String || value instanceof YamlBool) {
      name = value.toString();
    } else if (value instanceof BigDecimal) {
      name = ((BigDecimal) value).toPlainString();
    } else if (value instanceof Number) {
      name = value.toString();
    } else {
      throw problem(path, "must be a " + kind + " name, got " + describe(value));
    }
    if (name.isBlank()) {
      throw problem(path, "empty " + kind + " name");
    }
    return name.strip();
  }

  private int positiveInt(Object value, String path) throws SQLException {
    BigDecimal v = decimal(value, path);
    BigInteger i;
    try {
      i = v.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw problem(path, "must be a positive integer, got " + v);
    }
    if (i.signum() <= 0) {
      throw problem(path, "must be a positive integer, got " + v);
    }
    if (i.bitLength() > 31) {
      throw problem(path, "must be at most " + Integer.MAX_VALUE + ", got " + v);
    }
    return i.intValue();
  }

  /** An exact decimal from a YAML int, float or numeric string. */
  BigDecimal decimal(Object value, String path) throws SQLException {
    if (value instanceof BigDecimal) {
      return (BigDecimal) value;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short
        || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger) {
      return new BigDecimal((BigInteger) value);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        throw problem(path, "must be a finite number, got " + value);
      }
      return new BigDecimal(String.valueOf(value));
    }
    if (value instanceof String) {
      String s = ((String) value).strip().replace("_", "");
      try {
        return new BigDecimal(s);
      } catch (NumberFormatException e) {
        throw problem(path, "must be a number, got " + describe(value));
      }
    }
    throw problem(path, "must be a number, got " + describe(value));
  }

  static String describe(Object v) {
    if (v == null) {
      return "nothing";
    }
    if (v instanceof String) {
      return "'" + v + "'";
    }
    if (v instanceof YamlBool) {
      return "boolean " + v + (((YamlBool) v).text().matches("(?i)true|false") ? ""
          : " (YAML reads yes/no/on/off as booleans; quote it to mean text)");
    }
    if (v instanceof Boolean) {
      return "boolean " + v;
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).toString();
    }
    if (v instanceof Number) {
      return v.toString();
    }
    if (v instanceof List) {
      return "a list";
    }
    if (v instanceof Map) {
      return "a mapping";
    }
    return v.toString();
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private SQLException problem(String path, String reason) {
    return PolicyProblems.at(source, path, reason);
  }
}
