import { Injectable } from '@nestjs/common';
import { RedisConnection } from '@leadflow/shared-platform';

/**
 * Layout of the live usage counters in Redis (all under the process prefix, `usage:`):
 *
 * - `usage:h:<hour>:<account id>:<key id>` hash per key and UTC hour (`<hour>` = epoch seconds of
 *   the hour start): `n` requests started, `s2` / `s4` / `s5` / `rl` requests finished per family,
 *   `l:<bin>` latency histogram bins (see LatencyHistogram). Expires {@link USAGE_COUNTER_TTL_SECONDS}
 *   after its last write.
 * - `usage:k:<hour>` set of `<account id>:<key id>` with a hash that hour (same expiry).
 * - `usage:pending` set of hours written since the aggregation last closed them.
 *
 * On a Redis Cluster every one of them carries the hash tag `{<prefix>:usage}` (one slot): a flush is one
 * MULTI/EXEC over many keys and the aggregation pipelines reads across them (docs/adr/0006).
 */
export const USAGE_COUNTER_TTL_SECONDS = 3 * 24 * 3600;

/** Hash tag of every usage key on a cluster (RedisConnection.slotKey). */
const USAGE_SLOT = 'usage';

export const COUNTER_FIELDS = {
  started: 'n',
  status_2xx: 's2',
  status_4xx: 's4',
  status_5xx: 's5',
  rate_limited: 'rl',
  latencyBinPrefix: 'l:',
} as const;

@Injectable()
export class UsageRedisKeys {
  constructor(private readonly redis: RedisConnection) {}

  hourId(hour: Date): string {
    return String(Math.floor(hour.getTime() / 1000));
  }

  hourOf(hourId: string): Date | null {
    return /^\d+$/.test(hourId) ? new Date(Number(hourId) * 1000) : null;
  }

  member(accountId: string, apiKeyId: string): string {
    return `${accountId}:${apiKeyId}`;
  }

  counters(hour: Date, member: string): string {
    return this.redis.slotKey(USAGE_SLOT, 'usage', 'h', this.hourId(hour), member);
  }

  keysOfHour(hour: Date): string {
    return this.redis.slotKey(USAGE_SLOT, 'usage', 'k', this.hourId(hour));
  }

  pending(): string {
    return this.redis.slotKey(USAGE_SLOT, 'usage', 'pending');
  }
}
