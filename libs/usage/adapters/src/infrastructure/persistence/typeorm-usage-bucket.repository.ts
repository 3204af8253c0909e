import { Injectable } from '@nestjs/common';
import { AccountId, asAccountId, Clock } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { HourBucket, LatencyHistogram, UsageBucketRepository } from '@leadflow/usage-core';
import { UsageHourBucketRecord } from './usage-hour-bucket.record';

/** Rows per INSERT (16 parameters each, far below PostgreSQL's 65535). */
const UPSERT_BATCH = 1000;

/** TypeORM implementation of {@link UsageBucketRepository}; every query filters on `account_id`. */
@Injectable()
export class TypeOrmUsageBucketRepository extends UsageBucketRepository {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
  ) {
    super();
  }

  async saveHours(accountId: AccountId, buckets: HourBucket[]): Promise<void> {
    const aggregatedAt = this.clock.now();
    const rows = buckets
      .filter((bucket) => bucket.accountId === accountId)
      .map((bucket) => ({
        accountId,
        apiKeyId: bucket.apiKeyId,
        bucketStart: bucket.bucketStart,
        requestCount: bucket.requestCount,
        status2xx: bucket.status2xx,
        status4xx: bucket.status4xx,
        status5xx: bucket.status5xx,
        rateLimitedCount: bucket.rateLimited,
        statusUnknown: bucket.statusUnknown,
        latencyP50Ms: bucket.latency.percentile(0.5),
        latencyP95Ms: bucket.latency.percentile(0.95),
        latencyP99Ms: bucket.latency.percentile(0.99),
        latencyHistogram: bucket.latency.toBins(),
        closed: bucket.closed,
        aggregatedAt,
      }));
    for (let offset = 0; offset < rows.length; offset += UPSERT_BATCH) {
      await this.transactions.manager.upsert(UsageHourBucketRecord, rows.slice(offset, offset + UPSERT_BATCH), {
        conflictPaths: ['accountId', 'apiKeyId', 'bucketStart'],
      });
    }
  }

  async findHours(accountId: AccountId, apiKeyId: string | null, fromHour: Date, to: Date): Promise<HourBucket[]> {
    const query = this.transactions.manager.createQueryBuilder(UsageHourBucketRecord, 'bucket').where('bucket.account_id = :accountId', { accountId });
    // Without a key: every key's rows of the account (the primary key leads with account_id, so the range stays indexed).
    if (apiKeyId !== null) query.andWhere('bucket.api_key_id = :apiKeyId', { apiKeyId });
    const rows = await query
      .andWhere('bucket.bucket_start >= :fromHour', { fromHour })
      .andWhere('bucket.bucket_start < :to', { to })
      .orderBy('bucket.bucket_start', 'ASC')
      .getMany();
    return rows.map((row) => ({
      accountId: asAccountId(row.accountId),
      apiKeyId: row.apiKeyId,
      bucketStart: row.bucketStart,
      requestCount: row.requestCount,
      status2xx: row.status2xx,
      status4xx: row.status4xx,
      status5xx: row.status5xx,
      rateLimited: row.rateLimitedCount,
      statusUnknown: row.statusUnknown,
      latency: LatencyHistogram.fromBins(row.latencyHistogram),
      closed: row.closed,
    }));
  }
}
