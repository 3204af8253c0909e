import { Injectable } from '@nestjs/common';
import { asAccountId } from '@leadflow/shared-kernel';
import { RedisConnection } from '@leadflow/shared-platform';
import { KeyHourCounters, LatencyHistogram, UsageCounterStore } from '@leadflow/usage-core';
import { COUNTER_FIELDS, UsageRedisKeys } from './usage-redis-keys';

const READ_BATCH = 500;

/** Reads the counters {@link RedisUsageRecorder} writes (layout in usage-redis-keys.ts). */
@Injectable()
export class RedisUsageCounterStore extends UsageCounterStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: UsageRedisKeys,
  ) {
    super();
  }

  async pendingHours(): Promise<Date[]> {
    const members = await this.redis.client.smembers(this.keys.pending());
    return members.map((member) => this.keys.hourOf(member)).filter((hour): hour is Date => hour !== null);
  }

  async markPending(hour: Date): Promise<void> {
    await this.redis.client.sadd(this.keys.pending(), this.keys.hourId(hour));
  }

  async release(hour: Date): Promise<void> {
    await this.redis.client.srem(this.keys.pending(), this.keys.hourId(hour));
  }

  async readHour(hour: Date): Promise<KeyHourCounters[]> {
    const members = (await this.redis.client.smembers(this.keys.keysOfHour(hour))).sort();
    const counters: KeyHourCounters[] = [];
    for (let offset = 0; offset < members.length; offset += READ_BATCH) {
      const batch = members.slice(offset, offset + READ_BATCH);
      const pipeline = this.redis.client.pipeline();
      for (const member of batch) pipeline.hgetall(this.keys.counters(hour, member));
      const replies = (await pipeline.exec()) ?? [];
      batch.forEach((member, index) => {
        const [error, fields] = replies[index] ?? [new Error('no reply'), null];
        if (error) throw error;
        const parsed = this.parse(hour, member, (fields ?? {}) as Record<string, string>);
        if (parsed) counters.push(parsed);
      });
    }
    return counters;
  }

  private parse(hour: Date, member: string, fields: Record<string, string>): KeyHourCounters | null {
    const [accountId, apiKeyId] = member.split(':');
    if (!accountId || !apiKeyId || Object.keys(fields).length === 0) return null;
    const count = (field: string) => Math.max(0, Math.trunc(Number(fields[field] ?? 0)) || 0);
    const bins: Record<string, string> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (field.startsWith(COUNTER_FIELDS.latencyBinPrefix)) bins[field.slice(COUNTER_FIELDS.latencyBinPrefix.length)] = value;
    }
    return {
      accountId: asAccountId(accountId),
      apiKeyId,
      hour,
      started: count(COUNTER_FIELDS.started),
      status2xx: count(COUNTER_FIELDS.status_2xx),
      status4xx: count(COUNTER_FIELDS.status_4xx),
      status5xx: count(COUNTER_FIELDS.status_5xx),
      rateLimited: count(COUNTER_FIELDS.rate_limited),
      latency: LatencyHistogram.fromBins(bins),
    };
  }
}
