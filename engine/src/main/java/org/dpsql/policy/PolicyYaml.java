package org.dpsql.policy;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Locale;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.Construct;
import org.yaml.snakeyaml.constructor.ConstructorException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads policy text into plain Java values with SnakeYAML's safe constructor (no arbitrary
 * classes), with three changes that keep the owner's text intact: floats become {@link
 * BigDecimal} from their decimal text (so {@code 0.1} stays exactly 0.1), timestamps stay strings,
 * and booleans remember how they were written ({@link YamlBool}) so that a key such as {@code NO:}
 * is still a name. Duplicate keys are refused.
 */
final class PolicyYaml {
  private PolicyYaml() {}

  /** A YAML 1.1 boolean ({@code true, yes, on, ...}) together with its text. */
  record YamlBool(boolean value, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** Parses one YAML document; syntax errors become XDP04 with the line and column. */
  static Object load(String text, String source) throws SQLException {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setMaxAliasesForCollections(50);
    options.setAllowRecursiveKeys(false);
    DumperOptions dumper = new DumperOptions();
    Yaml yaml =
        new Yaml(
            new ExactConstructor(options),
            new Representer(dumper),
            dumper,
            options,
            new Resolver());
    try {
      return yaml.load(text);
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      StringBuilder reason = new StringBuilder();
      if (mark != null) {
        reason.append("line ").append(mark.getLine() + 1)
            .append(", column ").append(mark.getColumn() + 1).append(": ");
      }
      reason.append(e instanceof ConstructorException ? "invalid YAML: " : "YAML syntax error: ");
      String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
      reason.append(problem.strip());
      if (e.getContext() != null) {
        reason.append(" (").append(e.getContext().strip()).append(')');
      }
      throw PolicyProblems.at(source, "", reason.toString(), e);
    } catch (YAMLException e) {
      throw PolicyProblems.at(source, "", "YAML error: " + e.getMessage(), e);
    }
  }

  /** SafeConstructor with exact decimals, textual timestamps and text-preserving booleans. */
  private static final class ExactConstructor extends SafeConstructor {
    ExactConstructor(LoaderOptions options) {
      super(options);
      Construct floats = this.yamlConstructors.get(Tag.FLOAT);
      this.yamlConstructors.put(Tag.FLOAT, new ExactFloat(floats));
      this.yamlConstructors.put(Tag.TIMESTAMP, new Text());
      this.yamlConstructors.put(Tag.BOOL, new Bool());
    }

    private static String text(Node node) {
      return ((ScalarNode) node).getValue();
    }

    private static final class ExactFloat extends AbstractConstruct {
      private final Construct fallback;

      ExactFloat(Construct fallback) {
        this.fallback = fallback;
      }

      @Override
      public Object construct(Node node) {
        String t = text(node).replace("_", "");
        try {
          return new BigDecimal(t);
        } catch (NumberFormatException e) {
          // .inf, .nan and sexagesimal forms: let SnakeYAML produce a Double; callers reject
          // non-finite values.
          return fallback.construct(node);
        }
      }
    }

    private static final class Text extends AbstractConstruct {
      @Override
      public Object construct(Node node) {
        return text(node);
      }
    }

    private static final class Bool extends AbstractConstruct {
      @Override
      public Object construct(Node node) {
        String t = text(node);
        String v = t.toLowerCase(Locale.ROOT);
        return new YamlBool(v.equals("true") || v.equals("yes") || v.equals("on"), t);
      }
    }
  }
}
