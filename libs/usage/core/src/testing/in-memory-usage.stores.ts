import type { AccountId } from '@leadflow/shared-kernel';
import type { UsageBucketRepository } from '../application/ports/usage-bucket.repository.port';
import type { UsageCounterStore } from '../application/ports/usage-counter.store.port';
import { LatencyHistogram } from '../domain/latency-histogram.value-object';
import { familyOf } from '../domain/usage-family';
import type { HourBucket, KeyHourCounters } from '../domain/usage-bucket';
import { floorHour } from '../domain/usage-time';

/** Fake of the live counters with the request path's semantics (start, finish), for handler tests. */
export class InMemoryUsageCounterStore implements UsageCounterStore {
  private readonly counters = new Map<string, KeyHourCounters>();
  private readonly pending = new Set<number>();

  start(accountId: AccountId, apiKeyId: string, at: Date): Date {
    this.entry(accountId, apiKeyId, at).started += 1;
    this.pending.add(floorHour(at).getTime());
    return floorHour(at);
  }

  finish(accountId: AccountId, apiKeyId: string, startedAt: Date, statusCode: number, rateLimited: boolean, latencyMs: number): void {
    const entry = this.entry(accountId, apiKeyId, startedAt);
    const family = familyOf(statusCode, rateLimited);
    if (family === 'status_2xx') entry.status2xx += 1;
    if (family === 'status_4xx') entry.status4xx += 1;
    if (family === 'status_5xx') entry.status5xx += 1;
    if (family === 'rate_limited') entry.rateLimited += 1;
    if (family) entry.latency = entry.latency.merge(LatencyHistogram.of([latencyMs]));
    this.pending.add(floorHour(startedAt).getTime());
  }

  async pendingHours(): Promise<Date[]> {
    return [...this.pending].map((hour) => new Date(hour));
  }

  async markPending(hour: Date): Promise<void> {
    this.pending.add(hour.getTime());
  }

  async release(hour: Date): Promise<void> {
    this.pending.delete(hour.getTime());
  }

  async readHour(hour: Date): Promise<KeyHourCounters[]> {
    return [...this.counters.values()].filter((entry) => entry.hour.getTime() === hour.getTime()).map((entry) => ({ ...entry }));
  }

  private entry(accountId: AccountId, apiKeyId: string, at: Date): KeyHourCounters {
    const hour = floorHour(at);
    const id = `${hour.getTime()}:${accountId}:${apiKeyId}`;
    let entry = this.counters.get(id);
    if (!entry) {
      entry = { accountId, apiKeyId, hour, started: 0, status2xx: 0, status4xx: 0, status5xx: 0, rateLimited: 0, latency: LatencyHistogram.empty() };
      this.counters.set(id, entry);
    }
    return entry;
  }
}

/** Fake of `usage.hour_buckets`. */
export class InMemoryUsageBucketRepository implements UsageBucketRepository {
  readonly rows = new Map<string, HourBucket>();
  failNextSave = false;

  async saveHours(accountId: AccountId, buckets: HourBucket[]): Promise<void> {
    if (this.failNextSave) {
      this.failNextSave = false;
      throw new Error('database unavailable');
    }
    for (const bucket of buckets) {
      if (bucket.accountId !== accountId) throw new Error('bucket of another account');
      this.rows.set(`${accountId}:${bucket.apiKeyId}:${bucket.bucketStart.getTime()}`, bucket);
    }
  }

  async findHours(accountId: AccountId, apiKeyId: string | null, fromHour: Date, to: Date): Promise<HourBucket[]> {
    return [...this.rows.values()]
      .filter((row) => row.accountId === accountId && (apiKeyId === null || row.apiKeyId === apiKeyId))
      .filter((row) => row.bucketStart >= fromHour && row.bucketStart < to)
      .sort((a, b) => a.bucketStart.getTime() - b.bucketStart.getTime());
  }
}
