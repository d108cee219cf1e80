package org.dpsql.sql;

import java.util.List;

/** What a statement is, once the front end has parsed, validated and checked it against the policy. */
public sealed interface AnalyzedStatement {

  /** The statement text after normalisation (identical queries have identical text). */
  String normalizedSql();

  /**
   * A private aggregate: answered with noise after charging the budget. {@code released}, when not
   * null, is the release that answers it (the canonical statement of its private aggregate, whose
   * identity every statement over the same aggregate shares): the statement's result is then the
   * released rows with its outputs picked, named, sorted and cut as {@code query} says.
   */
  record PrivateAggregate(AggregateQuery query, String normalizedSql, List<ParameterInfo> parameters,
      Released released) implements AnalyzedStatement {
    /** A statement that is its own release. */
    public PrivateAggregate(AggregateQuery query, String normalizedSql,
        List<ParameterInfo> parameters) {
      this(query, normalizedSql, parameters, null);
    }
  }

  /**
   * Several private aggregates over one table answered jointly with one charge ({@code UNION ALL},
   * {@code ROLLUP}, {@code CUBE}, {@code GROUPING SETS}); {@code released} as for {@link
   * PrivateAggregate}.
   */
  record PrivateWorkload(WorkloadQuery query, String normalizedSql, List<ParameterInfo> parameters,
      Released released) implements AnalyzedStatement {
    /** A statement that is its own release. */
    public PrivateWorkload(WorkloadQuery query, String normalizedSql,
        List<ParameterInfo> parameters) {
      this(query, normalizedSql, parameters, null);
    }
  }

  /**
   * The release that answers a statement ({@link PrivateAggregate} or {@link PrivateWorkload},
   * with its own identity), for each output of the statement the index of the release's output it
   * shows, and the release's canonical statement as text (what EXPLAIN shows). {@code
   * parameters}: for each of the release's own parameters, the index of the statement's parameter
   * bound to it. {@code offsetParameter}, {@code fetchParameter}: the index of the statement's
   * parameter that gives its {@code OFFSET} or {@code LIMIT}/{@code FETCH} when a parameter gives
   * it, else -1 (a literal one is in the statement's query).
   */
  record Released(AnalyzedStatement release, List<Integer> pick, String statement,
      List<Integer> parameters, int offsetParameter, int fetchParameter) {
    public Released {
      pick = List.copyOf(pick);
      parameters = List.copyOf(parameters);
    }

    /** The values of the release's own parameters, from the statement's {@code values}. */
    public List<Object> releaseValues(List<Object> values) {
      return picked(values, parameters);
    }
  }

  /** {@code values} at {@code indexes}, in that order (a statement's values for one of its parts). */
  static List<Object> picked(List<Object> values, List<Integer> indexes) {
    if (values.isEmpty()) {
      return values;
    }
    List<Object> out = new java.util.ArrayList<>(indexes.size());
    for (int i : indexes) {
      out.add(values.get(i));
    }
    return java.util.Collections.unmodifiableList(out);
  }

  /** {@code SELECT * FROM TABLE(DPSQL.WORKLOAD(...))}: a named family answered jointly. */
  record NamedWorkload(FamilyQuery query, String normalizedSql) implements AnalyzedStatement {}

  /**
   * {@code SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('NAME'[, 'options']))}: the data owner's SafeTab
   * tabulation {@code table} of the policy, charged once to the connection's budget. {@code delta}
   * is the δ of an (ε, δ) charge under {@code approx} accounting when the options name one, else
   * null (the policy's {@code default_query} δ is used). {@code nonNegative}: negative released
   * counts are shown as 0, post-processing of the same release. {@code normalizedSql} identifies
   * the release (table and δ, not the post-processing), so asking with or without {@code
   * nonnegative} is the same release, paid once.
   */
  record AdaptiveTable(org.dpsql.policy.AdaptiveTablePolicy table, java.math.BigDecimal delta,
      boolean nonNegative, String normalizedSql) implements AnalyzedStatement {}

  /**
   * {@code SELECT * FROM TABLE(DPSQL.EXPLAIN('<sql>'))}: the candidate mechanisms of a private
   * statement with their costs and expected errors, without spending.
   */
  record ExplainFunction(AnalyzedStatement explained, String explainedSql, String normalizedSql)
      implements AnalyzedStatement {}

  /**
   * {@code EXPLAIN PLAN FOR} a private aggregate: describes it, spends nothing; {@code release} is
   * the canonical statement of the release that answers it (null when it is its own).
   */
  record Explain(AggregateQuery query, String normalizedSql, String release)
      implements AnalyzedStatement {
    public Explain(AggregateQuery query, String normalizedSql) {
      this(query, normalizedSql, null);
    }
  }

  /** {@code EXPLAIN PLAN FOR} a private workload, as {@link Explain}. */
  record ExplainWorkload(WorkloadQuery query, String normalizedSql, String release)
      implements AnalyzedStatement {
    public ExplainWorkload(WorkloadQuery query, String normalizedSql) {
      this(query, normalizedSql, null);
    }
  }

  /**
   * A read-only query over public tables only. {@code backendSql} is the statement as Calcite
   * parsed it, written back in the backend's dialect: the backend runs exactly what was checked,
   * so no difference between the two parsers can smuggle a private table past the check.
   */
  record PassThrough(String backendSql, String normalizedSql) implements AnalyzedStatement {}

  /** A query over the {@code DPSQL} system schema only. */
  record SystemQuery(String sql, String normalizedSql) implements AnalyzedStatement {}

  /**
   * A statement whose private parts are aggregates with anything around them: each private
   * aggregate is released on its own ({@code releases}, one per {@link
   * org.dpsql.sql.relational.ReleasePlan.Release}, each a {@link PrivateAggregate} or {@link
   * PrivateWorkload}), and {@code plan}'s post-processing statement computes the result from the
   * released rows and public data. Its {@code parameters} are planned once: each value is bound
   * where its {@code ?} stands, in a release's filter (part of that release's identity), the
   * post-processing ({@code HAVING ?}, {@code LIMIT ?}: post-processing, free) or a public input.
   */
  record Composite(org.dpsql.sql.relational.ReleasePlan plan, List<AnalyzedStatement> releases,
      String normalizedSql, List<ParameterInfo> parameters) implements AnalyzedStatement {
    public Composite {
      parameters = List.copyOf(parameters);
    }

    /** The values of release {@code i}'s own parameters, from the statement's {@code values}. */
    public List<Object> releaseValues(int i, List<Object> values) {
      return picked(values, plan.releases().get(i).parameters());
    }

    /** The values of the post-processing statement's parameters, in the order written. */
    public List<Object> postValues(List<Object> values) {
      return picked(values, plan.postParameters());
    }

    /** The values of public input {@code i}'s parameters, in the order written. */
    public List<Object> inputValues(int i, List<Object> values) {
      return picked(values, plan.publicInputs().get(i).parameters());
    }
  }

  /** {@code EXPLAIN PLAN FOR} a {@link Composite} statement: describes it, spends nothing. */
  record ExplainComposite(Composite composite, String normalizedSql) implements AnalyzedStatement {}

  /**
   * A statement over private tables whose releases depend on values known only when it runs.
   * With a {@code binder}: a statement planned once (parsed, validated, converted, normalised)
   * with a parameter where it decides what is released (a time bound, a {@code CASE} threshold, an
   * aggregated expression, a quantile's fraction); at execute the values are bound into its plan
   * ({@link Binder}) and its releases split and checked with them, once per distinct values. With
   * the {@code template} only (no binder): a statement that reads the clock ({@code CURRENT_DATE}),
   * or whose parameters validation cannot type; at execute the template is bound ({@link
   * StatementTemplate#bind}) and the bound text, literals only, is planned like any statement
   * (once per distinct values). A statement whose parameters stand only in releases' filters,
   * limits and post-processing is not deferred. {@code columns} and {@code parameters} describe
   * it by validation.
   */
  record Deferred(StatementTemplate template, List<ParameterInfo> parameters,
      List<ColumnInfo> columns, String normalizedSql, Binder binder) implements AnalyzedStatement {
    public Deferred(StatementTemplate template, List<ParameterInfo> parameters,
        List<ColumnInfo> columns, String normalizedSql) {
      this(template, parameters, columns, normalizedSql, null);
    }
  }

  /**
   * A statement's plan with values bound: the analysis of the statement written with those
   * values (each in its parameter's type) and with the clock read at one instant, from the plan
   * made once at prepare.
   */
  interface Binder {
    /** The analysis of the statement with {@code values} bound and its clock read at {@code now}. */
    AnalyzedStatement bind(List<Object> values, java.time.Instant now)
        throws java.sql.SQLException;

    /**
     * What the statement's clock calls read at {@code now} (empty when it reads none): with the
     * values, what identifies its bound statement.
     */
    List<String> clock(java.time.Instant now);
  }

  /**
   * A result column as validation describes it before the statement runs; {@code count}: a
   * {@code COUNT(...)} that is released as an integer (BIGINT).
   */
  record ColumnInfo(String label, int jdbcType, String typeName, boolean count) {
    public ColumnInfo(String label, int jdbcType, String typeName) {
      this(label, jdbcType, typeName, false);
    }
  }

  /** The JDBC type of a dynamic parameter, as validation inferred it. */
  record ParameterInfo(int jdbcType, String typeName, int precision, int scale) {}
}
