package org.dpsql.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** The JVM's peak heap use between a reset and a reading, for the benches' memory figures. */
final class HeapPeak {
  private HeapPeak() {}

  /** Starts a new measurement: forgets the peaks seen so far. */
  static void reset() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  /**
   * The sum of the heap pools' peak usage since the last {@link #reset()}, in GiB: an upper bound
   * on the live peak (the pools peak at different moments, garbage included).
   */
  static double gib() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak / (double) (1L << 30);
  }
}
