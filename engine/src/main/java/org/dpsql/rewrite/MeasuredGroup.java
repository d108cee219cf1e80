package org.dpsql.rewrite;

import java.util.List;

/**
 * One non-empty group of a statement that groups by keys declared {@code keys: private}, as the
 * backend measured it, before selection and noise: the cell of its declared group keys, the
 * values of its private keys (in GROUP BY order), its number of distinct units and its exact
 * measurements (in {@link MeasurementPlan#measurements()} order), all over the bounded rows.
 */
public record MeasuredGroup(int cell, List<Object> privateKeys, long units, long[] values) {
  public MeasuredGroup {
    privateKeys = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(privateKeys));
    values = values.clone();
  }
}
