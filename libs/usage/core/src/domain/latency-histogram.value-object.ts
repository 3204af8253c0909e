/**
 * A mergeable latency histogram with logarithmic bins (the DDSketch layout): bin `i` holds the
 * latencies in `(γ^(i-1), γ^i]` milliseconds with γ = (1 + α) / (1 − α), and reads back as
 * `2γ^i / (γ + 1)`, within a relative error α = 1 % of any latency in the bin. Bins are sparse
 * (an hour of one key typically fills a few dozen), sum when merged, so the percentiles of a day are
 * computed from its hours' histograms exactly as if from one histogram of the whole day.
 */
export const LATENCY_RELATIVE_ACCURACY = 0.01;
const GAMMA = (1 + LATENCY_RELATIVE_ACCURACY) / (1 - LATENCY_RELATIVE_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);
/** Latencies are clamped to [10 µs, 1 h]: bins −232 … 768. */
const MIN_MS = 0.01;
const MAX_MS = 3_600_000;

export class LatencyHistogram {
  private constructor(private readonly bins: ReadonlyMap<number, number>) {}

  static empty(): LatencyHistogram {
    return new LatencyHistogram(new Map());
  }

  /** From the stored form `{ "<bin>": count }`; entries that are not integer bins with positive counts are ignored. */
  static fromBins(stored: Record<string, unknown>): LatencyHistogram {
    const bins = new Map<number, number>();
    for (const [key, raw] of Object.entries(stored ?? {})) {
      const bin = Number(key);
      const count = Number(raw);
      if (key.trim() === '' || !Number.isInteger(bin) || !Number.isInteger(count) || count <= 0) continue;
      bins.set(bin, (bins.get(bin) ?? 0) + count);
    }
    return new LatencyHistogram(bins);
  }

  /** Histogram of individual samples (tests, benchmarks). */
  static of(latenciesMs: number[]): LatencyHistogram {
    const bins = new Map<number, number>();
    for (const latency of latenciesMs) {
      const bin = LatencyHistogram.binOf(latency);
      bins.set(bin, (bins.get(bin) ?? 0) + 1);
    }
    return new LatencyHistogram(bins);
  }

  /** The bin of a latency in milliseconds (non-finite or negative values read as the smallest bin). */
  static binOf(latencyMs: number): number {
    const clamped = Number.isFinite(latencyMs) ? Math.min(MAX_MS, Math.max(MIN_MS, latencyMs)) : MIN_MS;
    return Math.ceil(Math.log(clamped) / LOG_GAMMA);
  }

  /** The latency a bin reads back as (milliseconds). */
  static valueOf(bin: number): number {
    return (2 * Math.pow(GAMMA, bin)) / (GAMMA + 1);
  }

  get count(): number {
    let total = 0;
    for (const count of this.bins.values()) total += count;
    return total;
  }

  merge(other: LatencyHistogram): LatencyHistogram {
    const bins = new Map(this.bins);
    for (const [bin, count] of other.bins) bins.set(bin, (bins.get(bin) ?? 0) + count);
    return new LatencyHistogram(bins);
  }

  /**
   * Nearest-rank percentile (`q` in (0, 1]): the value of the bin holding the ⌈q·n⌉-th smallest
   * latency, in milliseconds rounded to 0.01. 0 for an empty histogram (a window whose requests are
   * all `status_unknown` has no measured latency).
   */
  percentile(q: number): number {
    const total = this.count;
    if (total === 0) return 0;
    const rank = Math.min(total, Math.max(1, Math.ceil(q * total)));
    let seen = 0;
    for (const bin of [...this.bins.keys()].sort((a, b) => a - b)) {
      seen += this.bins.get(bin) ?? 0;
      if (seen >= rank) return Math.round(LatencyHistogram.valueOf(bin) * 100) / 100;
    }
    return 0; // unreachable: seen reaches total
  }

  /** The stored form `{ "<bin>": count }`. */
  toBins(): Record<string, number> {
    const stored: Record<string, number> = {};
    for (const bin of [...this.bins.keys()].sort((a, b) => a - b)) stored[String(bin)] = this.bins.get(bin) ?? 0;
    return stored;
  }
}
