import { Command } from '@nestjs/cqrs';
import type { UsageAggregationResult } from './usage.views';

/**
 * Recomputes the usage hour buckets from the live counters: the current hour, the previous hour and
 * any hour with counters not yet closed; closes the hours that ended (public-api-v1 › Usage counter
 * rules (2): the current hourly bucket is recomputed every few minutes). Run by the worker's
 * repeatable job; a system command, so it spans every account (each row keeps its own `account_id`).
 */
export class AggregateUsageCommand extends Command<UsageAggregationResult> {
  constructor() {
    super();
  }
}
