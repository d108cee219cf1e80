package org.dpsql.session;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.LatticeMatrix;
import org.dpsql.matrix.mechanism.LatticeStrategy;
import org.dpsql.matrix.mechanism.LeastSquares;
import org.dpsql.matrix.mechanism.NoiseCalibration;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.rewrite.CellDomain;
import org.dpsql.rewrite.Measurement;
import org.dpsql.spatial.SpatialSynopsis;

/**
 * The byte format of released answers and synopses kept across restarts ({@link Releases} with a
 * {@link ReleaseStore}, and the body of a published synopsis file).
 *
 * <p>Guarantees: what is decoded equals what was encoded (released values bit for bit, statement
 * parameters with their Java classes, so that a restored answer is found by the same statement);
 * every entry ends with a CRC-32 of its bytes and a corrupt or truncated entry is refused with an
 * {@link IOException}, never half-read; sizes are bounded before anything is allocated; a synopsis
 * is restored only onto the columns and measurement the current policy defines by the same names.
 */
final class ReleaseCodec {
  private static final int MAGIC = 0x4450_5352; // "DPSR"
  private static final int VERSION = 1;
  private static final int MAX_DIMENSION = 1 << 24;
  private static final int MAX_NON_ZEROS = 1 << 28;
  private static final int MAX_ROWS = 50_000_000;

  static final String ANSWER = "answer";
  static final String SYNOPSIS = "synopsis";
  static final String SPATIAL = "spatial";

  private ReleaseCodec() {}

  /** A released answer and the statement (normalised SQL and parameters) it answers. */
  record StoredAnswer(Releases.AnswerKey key, ResultTable table) {}

  /** A released HTF synopsis of one spatial index. */
  record StoredSpatial(String key, SpatialExecutor.Released released) {}

  // ------------------------------------------------------------------------------ entries

  static byte[] answer(Releases.AnswerKey key, ResultTable t) throws IOException {
    return framed(ANSWER, out -> {
      writeLongString(out, key.normalizedSql());
      writeValues(out, key.parameters().toArray());
      out.writeInt(t.columns().size());
      for (ResultColumn c : t.columns()) {
        writeLongString(out, c.label());
        out.writeInt(c.jdbcType());
        out.writeUTF(c.typeName());
        out.writeUTF(c.javaClass().getName());
        out.writeInt(c.precision());
        out.writeInt(c.scale());
        out.writeBoolean(c.nullable());
      }
      out.writeInt(t.rows().size());
      for (Object[] row : t.rows()) {
        writeValues(out, row);
      }
    });
  }

  static StoredAnswer readAnswer(byte[] bytes) throws IOException {
    DataInputStream in = unframed(bytes, ANSWER);
    String sql = readLongString(in);
    List<Object> parameters = Arrays.asList(readValues(in));
    int ncols = in.readInt();
    if (ncols < 0 || ncols > 100_000) {
      throw new IOException("implausible number of columns " + ncols);
    }
    List<ResultColumn> columns = new ArrayList<>(ncols);
    for (int i = 0; i < ncols; i++) {
      String label = readLongString(in);
      int type = in.readInt();
      String typeName = in.readUTF();
      Class<?> javaClass = valueClass(in.readUTF());
      columns.add(new ResultColumn(label, type, typeName, javaClass, in.readInt(), in.readInt(),
          in.readBoolean()));
    }
    int nrows = in.readInt();
    if (nrows < 0 || nrows > MAX_ROWS) {
      throw new IOException("implausible number of rows " + nrows);
    }
    List<Object[]> rows = new ArrayList<>(Math.min(nrows, 1 << 16));
    for (int r = 0; r < nrows; r++) {
      Object[] row = readValues(in);
      if (row.length != ncols) {
        throw new IOException("a row of " + row.length + " values for " + ncols + " columns");
      }
      rows.add(row);
    }
    end(in);
    return new StoredAnswer(new Releases.AnswerKey(sql, parameters),
        new ResultTable(columns, rows));
  }

  static byte[] synopsis(Synopsis s) throws IOException {
    return framed(SYNOPSIS, out -> {
      Measurement m = s.measurement();
      out.writeUTF(m.kind().name());
      out.writeUTF(m.column() == null ? "" : m.column().name());
      out.writeUTF(m.resolution().toPlainString());
      out.writeLong(m.perRowBound());
      out.writeBoolean(s.estimate() != null);
      if (s.estimate() != null) {
        writeEstimateSynopsis(out, s);
      } else {
        out.writeUTF(s.table().name());
        writeColumns(out, s.cells());
        out.writeUTF(s.mechanism());
        writeDoubles(out, s.values());
      }
    });
  }

  /** The synopsis, restored onto the tables and columns of {@code policy}. */
  static Synopsis readSynopsis(byte[] bytes, Policy policy) throws IOException {
    DataInputStream in = unframed(bytes, SYNOPSIS);
    Measurement.Kind kind = Measurement.Kind.valueOf(in.readUTF());
    String columnName = in.readUTF();
    BigDecimal resolution = new BigDecimal(in.readUTF());
    long perRowBound = in.readLong();
    boolean estimate = in.readBoolean();
    Synopsis s;
    if (estimate) {
      s = readEstimateSynopsis(in, name -> table(policy, name));
    } else {
      TablePolicy table = table(policy, in.readUTF());
      CellDomain cells = cells(readColumns(in, table), CellDomain.MAX_TREE_CELLS);
      String mechanism = in.readUTF();
      double[] values = readDoubles(in, CellDomain.MAX_TREE_CELLS);
      if (values.length != cells.size()) {
        throw new IOException(values.length + " values for " + cells.size() + " cells");
      }
      s = new Synopsis(table, cells, Measurement.countStar(), null, values, mechanism);
    }
    end(in);
    TablePolicy table = s.table();
    Measurement m = switch (kind) {
      case COUNT_STAR -> Measurement.countStar();
      case COUNT -> Measurement.count(column(table, columnName));
      case SUM -> Measurement.sum(column(table, columnName));
      case COUNT_DISTINCT_UNIT, COUNT_DISTINCT ->
          throw new IOException("distinct counts are not kept as synopses");
    };
    if (m.resolution().compareTo(resolution) != 0 || m.perRowBound() != perRowBound) {
      throw new IOException("the policy now measures " + m.describe() + " differently");
    }
    return new Synopsis(table, s.cells(), m, s.estimate(), s.values(), s.mechanism());
  }

  static byte[] spatial(String key, SpatialExecutor.Released r) throws IOException {
    return framed(SPATIAL, out -> {
      out.writeUTF(key);
      out.writeInt(r.treeHeight());
      writeRational(out, r.epsilon());
      SpatialSynopsis s = r.synopsis();
      writeInts(out, s.bounds());
      writeInts(out, s.firstChildren());
      writeInts(out, s.childCounts());
      writeDoubles(out, s.estimates());
    });
  }

  static StoredSpatial readSpatial(byte[] bytes) throws IOException {
    DataInputStream in = unframed(bytes, SPATIAL);
    String key = in.readUTF();
    int height = in.readInt();
    Rational epsilon = readRational(in);
    int max = 4 * (int) Math.min(Integer.MAX_VALUE / 4, 4 * TablePolicy.MAX_SPATIAL_CELLS);
    int[] bounds = readInts(in, max);
    int[] first = readInts(in, max);
    int[] count = readInts(in, max);
    double[] estimates = readDoubles(in, max);
    end(in);
    SpatialSynopsis s;
    try {
      s = SpatialSynopsis.restore(bounds, first, count, estimates);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
    return new StoredSpatial(key, new SpatialExecutor.Released(s, height, epsilon));
  }

  // ------------------------------------------------------ the body of a published synopsis file

  /** A factor written as the row scales of an implicit {@code SineLattice} (rows are never < 0). */
  private static final int SINE_FACTOR = -1;

  /** Writes a least-squares synopsis: table, columns, mechanism, calibration, strategy, x̂. */
  static void writeEstimateSynopsis(DataOutputStream out, Synopsis s) throws IOException {
    out.writeUTF(s.table().name());
    writeColumns(out, s.cells());
    out.writeUTF(s.mechanism());
    Estimate e = s.estimate();
    NoiseCalibration n = e.noise();
    out.writeUTF(n.kind().name());
    writeRational(out, n.latticeParameter());
    out.writeInt(n.bits());
    writeRational(out, n.budget());
    out.writeUTF(n.guarantee());
    LatticeStrategy strategy = e.strategy();
    out.writeUTF(strategy.name());
    out.writeInt(strategy.factors().size());
    for (LatticeMatrix m : strategy.factors()) {
      if (m.sine() != null) {
        // the implicit all-range Eigen-Design: its integer row scales (the kernel is a fixed table)
        out.writeInt(SINE_FACTOR);
        out.writeInt(m.cols());
        out.writeInt(m.sine().scaleBits());
        for (long a : m.sine().scales()) {
          out.writeLong(a);
        }
        continue;
      }
      out.writeInt(m.rows());
      out.writeInt(m.cols());
      out.writeInt(m.bits());
      int[] starts = m.rowStarts();
      int[] cols = m.columnIndices();
      long[] vals = m.numerators();
      for (int v : starts) {
        out.writeInt(v);
      }
      for (int k = 0; k < cols.length; k++) {
        out.writeInt(cols[k]);
        out.writeLong(vals[k]);
      }
    }
    if (!e.hasCells()) {
      // answered by its own measurements: the measured values y instead of x̂
      double[] y = e.measuredValues();
      out.writeInt(OWN_ROWS);
      out.writeInt(y.length);
      for (double v : y) {
        out.writeDouble(v);
      }
      return;
    }
    double[] x = e.cells();
    out.writeInt(x.length);
    for (double v : x) {
      out.writeDouble(v);
    }
  }

  /** Written instead of the number of cells before the measured values of own-row answers. */
  private static final int OWN_ROWS = -1;

  /** Finds a table by the name written in a synopsis. */
  @FunctionalInterface
  interface TableLookup {
    /** The table, or null when the stored synopsis is of another table than expected. */
    TablePolicy table(String name) throws IOException;
  }

  /**
   * Reads what {@link #writeEstimateSynopsis} wrote, as a {@code COUNT(*)} synopsis (the caller
   * sets the measurement); null when {@code tables} returns null for its table.
   */
  static Synopsis readEstimateSynopsis(DataInputStream in, TableLookup tables)
      throws IOException {
    TablePolicy table = tables.table(in.readUTF());
    if (table == null) {
      return null;
    }
    List<ColumnPolicy> columns = readColumns(in, table);
    String mechanism = in.readUTF();
    NoiseCalibration.Kind kind = NoiseCalibration.Kind.valueOf(in.readUTF());
    Rational lattice = readRational(in);
    int noiseBits = in.readInt();
    Rational budget = readRational(in);
    String guarantee = in.readUTF();
    String strategyName = in.readUTF();
    int nfactors = in.readInt();
    if (nfactors <= 0 || nfactors > 64) {
      throw new IOException("implausible number of strategy factors " + nfactors);
    }
    List<LatticeMatrix> factors = new ArrayList<>();
    for (int f = 0; f < nfactors; f++) {
      int rows = in.readInt();
      if (rows == SINE_FACTOR) {
        int n = in.readInt();
        int scaleBits = in.readInt();
        if (n <= 0 || n > MAX_DIMENSION) {
          throw new IOException("implausible strategy size " + n);
        }
        long[] scales = new long[n];
        for (int i = 0; i < n; i++) {
          scales[i] = in.readLong();
        }
        try {
          factors.add(LatticeMatrix.of(org.dpsql.matrix.mechanism.SineLattice.of(scales,
              scaleBits)));
        } catch (IllegalArgumentException e) {
          throw new IOException(e.getMessage());
        }
        continue;
      }
      int cols = in.readInt();
      int bits = in.readInt();
      if (rows <= 0 || cols <= 0 || rows > MAX_DIMENSION || cols > MAX_DIMENSION) {
        throw new IOException("implausible strategy size " + rows + " x " + cols);
      }
      int[] starts = new int[rows + 1];
      for (int i = 0; i <= rows; i++) {
        starts[i] = in.readInt();
      }
      int nnz = starts[rows];
      if (nnz < 0 || nnz > MAX_NON_ZEROS) {
        throw new IOException("implausible strategy size");
      }
      int[] idx = new int[nnz];
      long[] val = new long[nnz];
      for (int k = 0; k < nnz; k++) {
        idx[k] = in.readInt();
        val[k] = in.readLong();
      }
      factors.add(LatticeMatrix.ofCompressedRows(rows, cols, bits, starts, idx, val));
    }
    int n = in.readInt();
    boolean ownRows = n == OWN_ROWS;
    if (ownRows) {
      n = in.readInt(); // the measured values y, one per strategy row
    }
    if (n <= 0 || n > (ownRows ? MAX_DIMENSION : CellDomain.MAX_CELLS)) {
      throw new IOException("implausible number of " + (ownRows ? "measured values " : "cells ")
          + n);
    }
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = in.readDouble();
    }
    CellDomain cells = cells(columns, CellDomain.MAX_CELLS);
    LatticeStrategy strategy = LatticeStrategy.of(strategyName, factors);
    NoiseCalibration noise = new NoiseCalibration(kind, lattice, noiseBits, budget, guarantee);
    Estimate e;
    try {
      e = ownRows
          ? Estimate.restoreOwnRows(org.dpsql.matrix.mechanism.OwnRowAnswers.of(strategy), x, noise)
          : Estimate.restore(LeastSquares.of(strategy), x, noise);
    } catch (IllegalArgumentException bad) {
      throw new IOException(bad.getMessage());
    }
    return new Synopsis(table, cells, Measurement.countStar(), e, mechanism);
  }

  static void writeRational(DataOutputStream out, Rational r) throws IOException {
    byte[] num = r.num().toByteArray();
    byte[] den = r.den().toByteArray();
    out.writeInt(num.length);
    out.write(num);
    out.writeInt(den.length);
    out.write(den);
  }

  static Rational readRational(DataInputStream in) throws IOException {
    return Rational.of(new BigInteger(readBytes(in, 1 << 20)), new BigInteger(readBytes(in, 1 << 20)));
  }

  // ------------------------------------------------------------------------------- framing

  @FunctionalInterface
  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] framed(String kind, Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeUTF(kind);
    body.write(out);
    out.flush();
    CRC32 crc = new CRC32();
    crc.update(bytes.toByteArray());
    out.writeLong(crc.getValue());
    out.flush();
    return bytes.toByteArray();
  }

  private static DataInputStream unframed(byte[] bytes, String kind) throws IOException {
    if (bytes.length < 8 + 8) {
      throw new IOException("truncated entry");
    }
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 8);
    long stored = 0;
    for (int i = bytes.length - 8; i < bytes.length; i++) {
      stored = (stored << 8) | (bytes[i] & 0xff);
    }
    if (stored != crc.getValue()) {
      throw new IOException("checksum mismatch");
    }
    DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8));
    if (in.readInt() != MAGIC || in.readInt() != VERSION) {
      throw new IOException("not a dpsql release of version " + VERSION);
    }
    String k = in.readUTF();
    if (!k.equals(kind)) {
      throw new IOException("a " + k + " entry where a " + kind + " was expected");
    }
    return in;
  }

  private static void end(DataInputStream in) throws IOException {
    if (in.read() != -1) {
      throw new IOException("trailing bytes");
    }
  }

  // ------------------------------------------------------------------------------- pieces

  private static TablePolicy table(Policy policy, String name) throws IOException {
    return policy.table(name)
        .orElseThrow(() -> new IOException("the policy has no table " + name + " any more"));
  }

  private static ColumnPolicy column(TablePolicy table, String name) throws IOException {
    return table.column(name).orElseThrow(() -> new IOException("the policy has no column "
        + table.name() + "." + name + " any more"));
  }

  private static CellDomain cells(List<ColumnPolicy> columns, int max) throws IOException {
    try {
      return new CellDomain(columns, max);
    } catch (java.sql.SQLException e) {
      throw new IOException(e.getMessage());
    }
  }

  private static void writeColumns(DataOutputStream out, CellDomain cells) throws IOException {
    out.writeInt(cells.columns().size());
    for (ColumnPolicy c : cells.columns()) {
      out.writeUTF(c.name());
    }
  }

  private static List<ColumnPolicy> readColumns(DataInputStream in, TablePolicy table)
      throws IOException {
    int n = in.readInt();
    if (n <= 0 || n > 64) {
      throw new IOException("implausible number of columns " + n);
    }
    List<ColumnPolicy> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(column(table, in.readUTF()));
    }
    return out;
  }

  private static void writeLongString(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readLongString(DataInputStream in) throws IOException {
    return new String(readBytes(in, 64 << 20), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new IOException("implausible length " + n);
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  private static void writeInts(DataOutputStream out, int[] v) throws IOException {
    out.writeInt(v.length);
    for (int x : v) {
      out.writeInt(x);
    }
  }

  private static int[] readInts(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new IOException("implausible length " + n);
    }
    int[] v = new int[n];
    for (int i = 0; i < n; i++) {
      v[i] = in.readInt();
    }
    return v;
  }

  private static void writeDoubles(DataOutputStream out, double[] v) throws IOException {
    out.writeInt(v.length);
    for (double x : v) {
      out.writeDouble(x);
    }
  }

  private static double[] readDoubles(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new IOException("implausible length " + n);
    }
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = in.readDouble();
    }
    return v;
  }

  /** The classes a result column may declare: values of these are what dpsql releases. */
  private static final List<Class<?>> VALUE_CLASSES = List.of(String.class, Long.class,
      Integer.class, Short.class, Byte.class, Double.class, Float.class, BigDecimal.class,
      BigInteger.class, Boolean.class, java.sql.Timestamp.class, java.sql.Date.class,
      java.sql.Time.class, Object.class);

  private static Class<?> valueClass(String name) throws IOException {
    for (Class<?> c : VALUE_CLASSES) {
      if (c.getName().equals(name)) {
        return c;
      }
    }
    throw new IOException("unexpected column class " + name);
  }

  private static void writeValues(DataOutputStream out, Object[] values) throws IOException {
    out.writeInt(values.length);
    for (Object v : values) {
      writeValue(out, v);
    }
  }

  private static Object[] readValues(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 100_000) {
      throw new IOException("implausible number of values " + n);
    }
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      out[i] = readValue(in);
    }
    return out;
  }

  private static void writeValue(DataOutputStream out, Object v) throws IOException {
    if (v == null) {
      out.writeByte(0);
    } else if (v instanceof String s) {
      out.writeByte(1);
      writeLongString(out, s);
    } else if (v instanceof Long l) {
      out.writeByte(2);
      out.writeLong(l);
    } else if (v instanceof Integer i) {
      out.writeByte(3);
      out.writeInt(i);
    } else if (v instanceof Double d) {
      out.writeByte(4);
      out.writeDouble(d);
    } else if (v instanceof BigDecimal d) {
      out.writeByte(5);
      byte[] b = d.unscaledValue().toByteArray();
      out.writeInt(b.length);
      out.write(b);
      out.writeInt(d.scale());
    } else if (v instanceof Boolean b) {
      out.writeByte(6);
      out.writeBoolean(b);
    } else if (v instanceof java.sql.Timestamp t) {
      out.writeByte(7);
      out.writeLong(t.getTime());
      out.writeInt(t.getNanos());
    } else if (v instanceof java.sql.Date d) {
      out.writeByte(8);
      out.writeLong(d.getTime());
    } else if (v instanceof java.sql.Time t) {
      out.writeByte(9);
      out.writeLong(t.getTime());
    } else if (v instanceof Short s) {
      out.writeByte(10);
      out.writeShort(s);
    } else if (v instanceof Byte b) {
      out.writeByte(11);
      out.writeByte(b);
    } else if (v instanceof Float f) {
      out.writeByte(12);
      out.writeFloat(f);
    } else if (v instanceof BigInteger b) {
      out.writeByte(13);
      byte[] bytes = b.toByteArray();
      out.writeInt(bytes.length);
      out.write(bytes);
    } else {
      throw new IOException("a value of class " + v.getClass().getName() + " cannot be stored");
    }
  }

  private static Object readValue(DataInputStream in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 0 -> null;
      case 1 -> readLongString(in);
      case 2 -> in.readLong();
      case 3 -> in.readInt();
      case 4 -> in.readDouble();
      case 5 -> {
        BigInteger unscaled = new BigInteger(readBytes(in, 1 << 16));
        yield new BigDecimal(unscaled, in.readInt());
      }
      case 6 -> in.readBoolean();
      case 7 -> {
        java.sql.Timestamp t = new java.sql.Timestamp(in.readLong());
        t.setNanos(in.readInt());
        yield t;
      }
      case 8 -> new java.sql.Date(in.readLong());
      case 9 -> new java.sql.Time(in.readLong());
      case 10 -> in.readShort();
      case 11 -> in.readByte();
      case 12 -> in.readFloat();
      case 13 -> new BigInteger(readBytes(in, 1 << 16));
      default -> throw new IOException("unknown value tag " + tag);
    };
  }
}
