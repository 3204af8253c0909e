import { nextRetryDelayMs, WEBHOOK_DEFAULT_RETRY_BASE_MS, WEBHOOK_MAX_ATTEMPTS } from './retry-schedule';

describe('webhook retry schedule', () => {
  const middle = () => 0.5; // no jitter

  it('waits base × 2^(n−1) after failed attempt n, 12 attempts in all', () => {
    expect([1, 2, 3, 11].map((n) => nextRetryDelayMs(n, 1000, middle))).toEqual([1000, 2000, 4000, 1_024_000]);
    expect(nextRetryDelayMs(WEBHOOK_MAX_ATTEMPTS, 1000, middle)).toBeNull();
  });

  it('spreads the attempts over about three days with the default base (2 minutes)', () => {
    let total = 0;
    for (let n = 1; n < WEBHOOK_MAX_ATTEMPTS; n++) total += nextRetryDelayMs(n, WEBHOOK_DEFAULT_RETRY_BASE_MS, middle)!;
    expect(total / 3_600_000).toBeCloseTo(68.2, 1); // hours between attempt 1 and attempt 12
  });

  it('applies at most ±20 % jitter', () => {
    expect(nextRetryDelayMs(1, 1000, () => 0)).toBe(800);
    expect(nextRetryDelayMs(1, 1000, () => 0.999999)).toBe(1200);
  });
});
