import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { DeliveryState } from '../../../domain/delivery-attempt';
import type { ClaimRefusal } from '../../ports/webhook-delivery.repository.port';

/** What one attempt did: skipped (not claimed, and why) or made, with the delivery's new state. */
export type AttemptOutcome =
  | { result: 'skipped'; reason: ClaimRefusal }
  | {
      result: DeliveryState;
      /** 1-based number of this attempt. */
      attempt: number;
      responseStatus: number | null;
      error: string | null;
      /** Due time of the next attempt when `retrying`. */
      nextAttemptAt: Date | null;
      /** Wait before the next attempt (ms) when `retrying`: the queue's backoff uses it. */
      retryDelayMs: number | null;
    };

/** One attempt of one delivery (the delivery job's work). */
export class AttemptWebhookDeliveryCommand extends Command<AttemptOutcome> {
  constructor(
    readonly accountId: AccountId,
    readonly deliveryId: string,
  ) {
    super();
  }
}
