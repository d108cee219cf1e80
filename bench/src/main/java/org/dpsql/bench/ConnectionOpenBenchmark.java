package org.dpsql.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.dpsql.bench.BenchDatabase.PolicyKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Connection open + first query on a warm JVM: each invocation opens a new dpsql connection
 * (policy {@code privacy_unit: ROW}, read and validated against the schema on every open), runs
 * one private {@code SELECT G, COUNT(*) FROM T WHERE G >= ? GROUP BY G} on a 10,000-row table,
 * reads the 50 rows and closes the connection. The parameter changes on every invocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ConnectionOpenBenchmark {

  @State(Scope.Benchmark)
  public static class Data {
    Connection holder;
    Path policy;
    int k;

    @Setup(Level.Trial)
    public void create() throws Exception {
      holder = BenchDatabase.create(BenchDatabase.SMALL_URL, BenchDatabase.SMALL_ROWS);
      policy = BenchDatabase.writePolicy(PolicyKind.ROW_UNIT);
    }

    @TearDown(Level.Trial)
    public void drop() {
      BenchDatabase.shutdown(holder);
    }
  }

  @Benchmark
  public long openAndFirstQuery(Data data) throws SQLException {
    try (Connection c = BenchDatabase.openPrivate(BenchDatabase.SMALL_URL, data.policy);
        PreparedStatement ps = c.prepareStatement(BenchDatabase.QUERY)) {
      return BenchDatabase.run(ps, ++data.k);
    }
  }
}
