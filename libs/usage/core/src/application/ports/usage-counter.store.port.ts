import type { KeyHourCounters } from '../../domain/usage-bucket';

/**
 * The live usage counters the request path writes (Redis in production): per key and UTC hour, and
 * the set of hours with counters not yet closed. Read only by the aggregation; spans every account
 * (each counter carries its own AccountId).
 */
export abstract class UsageCounterStore {
  /** Hours (UTC hour starts) written since they were last closed. */
  abstract pendingHours(): Promise<Date[]>;
  /** Marks an hour as pending again (a failed aggregation gives it back). */
  abstract markPending(hour: Date): Promise<void>;
  /** Stops tracking an hour as pending; a later write to it marks it pending again. */
  abstract release(hour: Date): Promise<void>;
  /** Every key's counters for one hour. */
  abstract readHour(hour: Date): Promise<KeyHourCounters[]>;
}
