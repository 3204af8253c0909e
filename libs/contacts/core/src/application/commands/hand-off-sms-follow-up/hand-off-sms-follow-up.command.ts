import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { LeadCreatedPayload } from '@leadflow/contacts-contracts';

/** Outcome of a hand-off: `handed_off` now, `already_handed_off` (same event), or `skipped` with why. */
export type SmsHandOffOutcome = 'handed_off' | 'already_handed_off' | 'skipped_no_consent' | 'skipped_contact_gone' | 'skipped_follow_up_stopped';

/**
 * Hands a captured lead over to the SMS bot (public-api-v1 › Endpoints › Leads rule 7), from the
 * relayed `lead_created` event `eventId`. Run by the worker's lead follow-up job.
 */
export class HandOffSmsFollowUpCommand extends Command<SmsHandOffOutcome> {
  constructor(
    readonly accountId: AccountId,
    readonly eventId: string,
    readonly payload: LeadCreatedPayload,
    readonly capturedAt: Date,
  ) {
    super();
  }
}
