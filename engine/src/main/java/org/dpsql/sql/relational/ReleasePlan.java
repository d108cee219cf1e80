package org.dpsql.sql.relational;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A statement split at its private aggregates: the {@link Release}s to measure privately, the
 * public inputs to read from the backend, and the post-processing statement that computes the
 * statement's result from them alone.
 *
 * <p>Guarantees: {@link #postSql()} reads only the tables named by the releases ({@code R0, R1, ...},
 * columns {@code C0, C1, ...}) and the public inputs ({@code P0, P1, ...}, same column naming), so
 * everything it computes is post-processing of the released rows and of public data. A statement
 * whose plan is provably empty (a schema probe: {@code WHERE 1 = 0}, {@code LIMIT 0}) has no
 * releases and no inputs, and {@code empty} is true.
 *
 * @param releases the private aggregates, each as its canonical single-table statement
 * @param publicInputs the public parts of the statement, each as a backend statement
 * @param postSqlText the post-processing statement (H2 dialect; {@link #postSql()}), written on
 *     first use (a statement answered by its one release never needs it), null when {@code empty}
 * @param rowType the statement's result type, with the validated column names
 * @param planText the relational plan with its release nodes, for EXPLAIN ({@link #plan()})
 * @param empty whether the statement returns no rows whatever the data
 * @param post the post-processing plan over the release and public-input tables (scans of
 *     {@code R0, P0, ...}), null when {@code empty}
 */
public record ReleasePlan(List<Release> releases, List<PublicInput> publicInputs,
    Text postSqlText, RelDataType rowType, Text planText, boolean empty,
    org.apache.calcite.rel.RelNode post) {

  public ReleasePlan {
    releases = List.copyOf(releases);
    publicInputs = List.copyOf(publicInputs);
  }

  /** The post-processing statement (H2 dialect), null when {@code empty}. */
  public String postSql() {
    return postSqlText == null ? null : postSqlText.get();
  }

  /** The relational plan with its release nodes, for EXPLAIN. */
  public String plan() {
    return planText.get();
  }

  /**
   * The statement's parameters that the post-processing statement binds, one per {@code ?} it
   * contains in the order written: the indexes of the statement's parameters (empty when none).
   */
  public List<Integer> postParameters() {
    return postSqlText == null ? List.of() : postSqlText.parameters();
  }

  /**
   * A text written once, on first use (thread-safe; writing it twice is harmless), with the
   * statement indexes of the parameters ({@code ?}) it contains, in the order written.
   */
  public static final class Text {
    private final java.util.function.Supplier<org.apache.calcite.sql.util.SqlString> writer;
    private volatile org.apache.calcite.sql.util.SqlString text;

    private Text(java.util.function.Supplier<org.apache.calcite.sql.util.SqlString> writer) {
      this.writer = writer;
    }

    /** A text without parameters, written by {@code writer}. */
    static Text of(java.util.function.Supplier<String> writer) {
      return new Text(() -> new org.apache.calcite.sql.util.SqlString(
          org.apache.calcite.sql.dialect.AnsiSqlDialect.DEFAULT, writer.get()));
    }

    /** A statement written by {@code writer}, whose parameters it records. */
    static Text statement(java.util.function.Supplier<org.apache.calcite.sql.util.SqlString> writer) {
      return new Text(writer);
    }

    String get() {
      return written().getSql();
    }

    List<Integer> parameters() {
      List<Integer> p = written().getDynamicParameters();
      return p == null ? List.of() : p;
    }

    private org.apache.calcite.sql.util.SqlString written() {
      org.apache.calcite.sql.util.SqlString t = text;
      if (t == null) {
        t = writer.get();
        text = t;
      }
      return t;
    }
  }

  /** This plan with its result columns named {@code labels} (same number and types). */
  public ReleasePlan withLabels(List<String> labels,
      org.apache.calcite.rel.type.RelDataTypeFactory typeFactory) {
    List<RelDataType> types = rowType.getFieldList().stream()
        .map(org.apache.calcite.rel.type.RelDataTypeField::getType).toList();
    return new ReleasePlan(releases, publicInputs, postSqlText,
        typeFactory.createStructType(types, labels), planText, empty, post);
  }

  /** This plan with {@code hintText} as every release's DP hint. */
  public ReleasePlan withHint(String hintText) {
    List<Release> hinted = new java.util.ArrayList<>();
    for (Release r : releases) {
      hinted.add(new Release(r.table(), r.core(), hintText));
    }
    return new ReleasePlan(hinted, publicInputs, postSqlText, rowType, planText, empty, post);
  }

  /**
   * The number of distinct releases that cost budget (the same aggregate reached twice is one
   * release; a listing of declared domains costs nothing): the statement's budget is split
   * equally among them.
   */
  public int chargedReleases() {
    return (int) Math.max(1, releases.stream().filter(r -> !r.core().listsDomain())
        .map(r -> new Release("", r.core(), "").statementText()).distinct().count());
  }

  /**
   * One private aggregate, released as table {@code table}: its canonical statement (a parse tree,
   * with its derived columns: expressions of one point-domain column) and the text of its DP hint
   * (its share of the statement's budget, empty until the front end sets it).
   */
  public record Release(String table, CoreAggregate.Canonical core, String hint) {
    /**
     * For each parameter of the canonical statement (its own, numbered from 0), the index of the
     * statement's parameter it stands for.
     */
    public List<Integer> parameters() {
      return core.parameters();
    }

    public List<CoreAggregate.Derived> derived() {
      return core.derived();
    }

    public List<CoreAggregate.Computed> computed() {
      return core.computed();
    }

    /** The canonical statement as text, with its hint: for the ledger, EXPLAIN and messages. */
    public String coreSql() {
      return core.sql(hint);
    }

    /** The definitions of the derived and computed columns, e.g. {@code DPSQL_V0 = ...}. */
    public List<String> definitions() {
      List<String> out = new java.util.ArrayList<>();
      for (CoreAggregate.Derived d : derived()) {
        out.add(d.name() + " = " + d.text());
      }
      for (CoreAggregate.Computed c : computed()) {
        out.add(c.name() + " = " + c.value().text() + " in [" + c.range().lo().toPlainString()
            + ", " + c.range().hi().toPlainString() + "]");
      }
      return out;
    }

    /**
     * The canonical statement with its derived columns' definitions as a trailing comment: what
     * the ledger and EXPLAIN show.
     */
    public String statementText() {
      List<String> defs = definitions();
      if (defs.isEmpty()) {
        return coreSql();
      }
      return coreSql() + " /* " + String.join(", ", defs).replace("*/", "* /") + " */";
    }
  }

  /**
   * One public part, read from the backend with {@code backendSql} into table {@code table};
   * {@code parameters}: the statement index of each of its {@code ?}, in the order written.
   */
  public record PublicInput(String table, String backendSql, RelDataType rowType,
      List<Integer> parameters) {
    public PublicInput {
      parameters = List.copyOf(parameters);
    }
  }
}
