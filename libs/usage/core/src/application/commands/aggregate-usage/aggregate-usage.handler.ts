import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Clock } from '@leadflow/shared-kernel';
import { AggregateUsageCommand, UsageAggregationResult } from '@leadflow/usage-contracts';
import { HourBucket, hourBucketFromCounters } from '../../../domain/usage-bucket';
import { floorHour, HOUR_MS } from '../../../domain/usage-time';
import { UsageBucketRepository } from '../../ports/usage-bucket.repository.port';
import { UsageCounterStore } from '../../ports/usage-counter.store.port';

/**
 * How long after its end an hour is recomputed once more and closed: requests still running at the
 * boundary usually finish within it. An outcome recorded even later reopens the hour (the request
 * path marks it pending again) and the next run corrects the bucket.
 */
export const USAGE_CLOSE_GRACE_MS = 5 * 60_000;

/**
 * Recomputes hour buckets from the live counters (public-api-v1 › Usage counter rules (2)): the
 * current hour and every pending hour (any hour written since it was closed: the previous hour until
 * it is closed, older ones a stopped worker missed), each from its absolute counters, so a run
 * is idempotent and runs may overlap. An hour that ended more than the grace ago is closed: released
 * from the pending set before it is read (a concurrent late write re-adds it) and given back if the
 * write to PostgreSQL fails. Requests started and not finished are `status_unknown` until a later run
 * sees their outcome. Hours after the current one (a clock moved back) are left for later.
 */
@CommandHandler(AggregateUsageCommand)
export class AggregateUsageHandler implements ICommandHandler<AggregateUsageCommand> {
  constructor(
    private readonly counters: UsageCounterStore,
    private readonly buckets: UsageBucketRepository,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<UsageAggregationResult> {
    const now = this.clock.now();
    const current = floorHour(now).getTime();
    const candidates = new Set<number>([current]);
    for (const hour of await this.counters.pendingHours()) candidates.add(floorHour(hour).getTime());
    const hours = [...candidates].filter((hour) => hour <= current).sort((a, b) => a - b);

    const result: UsageAggregationResult = { hours: [], bucketCount: 0, closedHours: [] };
    for (const start of hours) {
      const hour = new Date(start);
      const closing = start + HOUR_MS + USAGE_CLOSE_GRACE_MS <= now.getTime();
      if (closing) await this.counters.release(hour);
      try {
        const buckets = (await this.counters.readHour(hour)).map((counters) => hourBucketFromCounters(counters, closing));
        for (const [accountId, ofAccount] of groupByAccount(buckets)) await this.buckets.saveHours(accountId, ofAccount);
        result.bucketCount += buckets.length;
      } catch (error) {
        if (closing) await this.counters.markPending(hour).catch(() => undefined);
        throw error;
      }
      result.hours.push(hour.toISOString());
      if (closing) result.closedHours.push(hour.toISOString());
    }
    return result;
  }
}

function groupByAccount(buckets: HourBucket[]): Map<AccountId, HourBucket[]> {
  const groups = new Map<AccountId, HourBucket[]>();
  for (const bucket of buckets) groups.set(bucket.accountId, [...(groups.get(bucket.accountId) ?? []), bucket]);
  return groups;
}
