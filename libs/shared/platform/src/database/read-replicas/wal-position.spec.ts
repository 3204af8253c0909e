import { formatLsn, parseLsn, parseSortableLsn, PrimaryWalHistory, sortableLsn } from './wal-position';

describe('WAL positions', () => {
  it('parses and prints PostgreSQL LSNs, and their sortable form orders like the numbers', () => {
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
    expect(formatLsn(0x16b374d848n)).toBe('16/B374D848');
    expect(parseSortableLsn(sortableLsn(0x16b374d848n))).toBe(0x16b374d848n);
    expect(sortableLsn(0xfn) < sortableLsn(0x1_0000_0000n)).toBe(true);
    expect(() => parseLsn('nope')).toThrow('invalid LSN');
  });
});

describe('PrimaryWalHistory: a replica lag is how long ago the primary was at its replay position', () => {
  it('is unknown before the first primary sample', () => {
    expect(new PrimaryWalHistory(10_000).lagMs(5n, 1000)).toBeNull();
  });

  it('is 0 for a replica that replayed the latest sample (an idle primary included)', () => {
    const history = new PrimaryWalHistory(10_000);
    for (let at = 0; at <= 5000; at += 200) history.record(at, 100n);
    expect(history.lagMs(100n, 5000)).toBe(0);
  });

  it('interpolates between the samples around the replay position', () => {
    const history = new PrimaryWalHistory(10_000);
    history.record(1000, 100n);
    history.record(1200, 300n);
    history.record(1400, 500n);
    // The primary passed 200 halfway between 1000 and 1200.
    expect(history.lagMs(200n, 1400)).toBe(300);
  });

  it('is at least the window for a replica behind every sample kept', () => {
    const history = new PrimaryWalHistory(1000);
    for (let at = 0; at <= 5000; at += 100) history.record(at, BigInt(1000 + at));
    expect(history.lagMs(10n, 5000)).toBeGreaterThanOrEqual(1000);
  });
});
