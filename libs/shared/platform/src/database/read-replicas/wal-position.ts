/**
 * PostgreSQL WAL positions (LSNs) and the replica lag estimated from them (docs/adr/0007).
 *
 * An LSN is a 64-bit byte position in the write-ahead log, printed by PostgreSQL as two hexadecimal
 * halves (`16/B374D848`). It is kept as a `bigint` here, and in Redis as 16 zero-padded hexadecimal digits
 * so that a string comparison (Lua's `<`) orders LSNs like numbers.
 */

/**
 * `'16/B374D848'` → `0x16B374D848n`.
 * @throws Error `invalid LSN` for anything else (PostgreSQL's `pg_lsn` text only).
 */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`invalid LSN ${JSON.stringify(text)}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** `0x16B374D848n` → `'16/B374D848'` (PostgreSQL's text form). */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** 16 zero-padded hexadecimal digits: string order is LSN order (the Redis form). */
export function sortableLsn(lsn: bigint): string {
  return lsn.toString(16).toUpperCase().padStart(16, '0');
}

/** Inverse of {@link sortableLsn}. @throws Error `invalid LSN` when `text` is not 1–16 hexadecimal digits. */
export function parseSortableLsn(text: string): bigint {
  if (!/^[0-9A-Fa-f]{1,16}$/.test(text)) throw new Error(`invalid LSN ${JSON.stringify(text)}`);
  return BigInt(`0x${text}`);
}

interface WalSample {
  /** When the primary was read (ms since the epoch). */
  at: number;
  /** `pg_current_wal_insert_lsn()` at that time. */
  lsn: bigint;
}

/**
 * The primary's WAL position over the last `windowMs`, sampled by the replica poller, and the lag it
 * implies for a replica: how long ago the primary was where the replica's replay is now.
 *
 * Between two samples the primary is assumed to have written at a constant rate (linear interpolation),
 * so the estimate is good to a fraction of one poll interval; a replica that has replayed the latest
 * sample has lag 0, and one older than the whole window gets at least the window (it is skipped).
 */
export class PrimaryWalHistory {
  private readonly samples: WalSample[] = [];

  /** `windowMs`: how much history is kept (ms); set it above the largest lag that must be told apart. */
  constructor(private readonly windowMs: number) {}

  /** The newest sample, or undefined before the first one. */
  get latest(): WalSample | undefined {
    return this.samples[this.samples.length - 1];
  }

  /** Records the primary's position `lsn` read at `at` (ms); samples must come in time order. */
  record(at: number, lsn: bigint): void {
    this.samples.push({ at, lsn });
    while (this.samples.length > 2 && (this.samples[0] as WalSample).at < at - this.windowMs) this.samples.shift();
  }

  /**
   * Lag (ms, ≥ 0) of a replica that had replayed up to `replayLsn` at `observedAt` (ms); null before the
   * first primary sample (unknown: such a replica is not used).
   */
  lagMs(replayLsn: bigint, observedAt: number): number | null {
    const latest = this.latest;
    if (!latest) return null;
    if (replayLsn >= latest.lsn) return 0;
    // The newest sample at or below the replica's position, and the one after it (where the primary passed it).
    for (let index = this.samples.length - 2; index >= 0; index--) {
      const before = this.samples[index] as WalSample;
      if (before.lsn > replayLsn) continue;
      const after = this.samples[index + 1] as WalSample;
      const span = after.lsn - before.lsn;
      const fraction = span > 0n ? Number(replayLsn - before.lsn) / Number(span) : 1;
      const passedAt = before.at + fraction * (after.at - before.at);
      return Math.max(0, observedAt - passedAt);
    }
    return Math.max(0, observedAt - (this.samples[0] as WalSample).at);
  }
}
