import { LATENCY_RELATIVE_ACCURACY, LatencyHistogram } from './latency-histogram.value-object';

/** The exact nearest-rank percentile of samples (the definition the histogram approximates). */
function exactPercentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}

function expectWithinAccuracy(actual: number, exact: number): void {
  // 1 % relative accuracy of the bins, plus the 0.01 ms rounding of the reported value.
  expect(Math.abs(actual - exact)).toBeLessThanOrEqual(exact * LATENCY_RELATIVE_ACCURACY + 0.005 + 1e-9);
}

describe('LatencyHistogram (latency_p50_ms, latency_p95_ms, latency_p99_ms of a bucket)', () => {
  it('reads every latency back within 1 % of its value', () => {
    for (const latency of [0.05, 0.8, 1, 3.7, 12.5, 99.9, 250, 1234.5, 59_999]) {
      expectWithinAccuracy(LatencyHistogram.valueOf(LatencyHistogram.binOf(latency)), latency);
    }
  });

  it('gives nearest-rank percentiles p50, p95 and p99 within 1 % of the exact ones', () => {
    const samples = Array.from({ length: 1000 }, (_, index) => 2 + ((index * 7919) % 1000) * 0.37);
    const histogram = LatencyHistogram.of(samples);
    for (const q of [0.5, 0.95, 0.99]) expectWithinAccuracy(histogram.percentile(q), exactPercentile(samples, q));
    expect(histogram.count).toBe(1000);
  });

  it('picks the rank ⌈q·n⌉: with latencies 10, 20, 30, 40 and 1000 ms, p50 is 30 and p95 and p99 are 1000', () => {
    const histogram = LatencyHistogram.of([1000, 20, 10, 40, 30]);
    expectWithinAccuracy(histogram.percentile(0.5), 30);
    expectWithinAccuracy(histogram.percentile(0.95), 1000);
    expectWithinAccuracy(histogram.percentile(0.99), 1000);
  });

  it('answers 0 for a window without a measured latency (only status_unknown requests)', () => {
    expect(LatencyHistogram.empty().percentile(0.5)).toBe(0);
    expect(LatencyHistogram.empty().percentile(0.99)).toBe(0);
  });

  it('merges hourly histograms into the histogram of the whole day (day percentiles from histograms)', () => {
    const morning = [5, 6, 7, 8, 9, 400];
    const evening = [50, 60, 70, 80, 90, 100, 110, 120];
    const merged = LatencyHistogram.of(morning).merge(LatencyHistogram.of(evening));
    const whole = LatencyHistogram.of([...morning, ...evening]);
    expect(merged.toBins()).toEqual(whole.toBins());
    for (const q of [0.5, 0.95, 0.99]) expectWithinAccuracy(merged.percentile(q), exactPercentile([...morning, ...evening], q));
  });

  it('round-trips through its stored form and ignores malformed stored entries', () => {
    const histogram = LatencyHistogram.of([1, 2, 2, 300]);
    expect(LatencyHistogram.fromBins(histogram.toBins()).toBins()).toEqual(histogram.toBins());
    const stored = { ...histogram.toBins(), nope: 3, '1.5': 2, '7': -1, '8': 'x' } as Record<string, unknown>;
    expect(LatencyHistogram.fromBins(stored).toBins()).toEqual(histogram.toBins());
  });

  it('clamps non-finite, negative and huge latencies instead of failing', () => {
    const histogram = LatencyHistogram.of([Number.NaN, -3, Number.POSITIVE_INFINITY, 1e12]);
    expect(histogram.count).toBe(4);
    expect(histogram.percentile(0.99)).toBeLessThanOrEqual(3_600_000 * 1.02);
  });
});
