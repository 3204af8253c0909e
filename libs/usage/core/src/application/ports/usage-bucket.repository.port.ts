import type { AccountId } from '@leadflow/shared-kernel';
import type { HourBucket } from '../../domain/usage-bucket';

/** The aggregated hour buckets (`usage.hour_buckets`). */
export abstract class UsageBucketRepository {
  /** Inserts or replaces the buckets of one account (each is keyed by key and hour). */
  abstract saveHours(accountId: AccountId, buckets: HourBucket[]): Promise<void>;
  /** The key's buckets whose hour starts in `[fromHour, to)`, ascending; `apiKeyId` null: every key of the account. */
  abstract findHours(accountId: AccountId, apiKeyId: string | null, fromHour: Date, to: Date): Promise<HourBucket[]>;
}
