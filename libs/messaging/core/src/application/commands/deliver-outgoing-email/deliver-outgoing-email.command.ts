import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { OutgoingEmailStatus } from '@leadflow/messaging-contracts';

/** What one delivery attempt did. */
export type DeliveryOutcome =
  /** Handed over; the email is `sent`. */
  | { result: 'sent'; attempts: number }
  /** Transient failure; the email is `queued` again: retry later. */
  | { result: 'retry'; attempts: number; error: string }
  /** Permanent failure, or a transient one on the final attempt; the email is `failed`. */
  | { result: 'failed'; attempts: number; error: string; permanent: boolean }
  /** Another worker holds a fresh claim on the email: try again later. */
  | { result: 'busy' }
  /** Nothing to do: the email is already `sent` or `failed`, or does not exist. */
  | { result: 'skipped'; status: OutgoingEmailStatus | 'missing' };

/**
 * Internal to messaging (the worker's delivery job): one attempt to hand a queued email over.
 * `finalAttempt`: a transient failure now fails the email instead of queuing it again.
 */
export class DeliverOutgoingEmailCommand extends Command<DeliveryOutcome> {
  constructor(
    readonly accountId: AccountId,
    readonly emailId: string,
    readonly finalAttempt: boolean,
  ) {
    super();
  }
}
