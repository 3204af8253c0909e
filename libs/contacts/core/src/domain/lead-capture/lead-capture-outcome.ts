import type { LeadCaptureStatus } from '@leadflow/contacts-contracts';

/** The per-contact deduplication window (public-api-v1 › Limits: 5 minutes). */
export const LEAD_DEDUP_WINDOW_MS = 5 * 60_000;

export interface OutcomeFacts {
  contactWasNew: boolean;
  /** The contact's last recorded capture, or null. */
  lastCaptureAt: Date | null;
  now: Date;
  /** The contact is in a stage that is neither won nor lost, and is not archived. */
  inOpenStage: boolean;
}

/**
 * public-api-v1 › Lead capture outcome, in priority order: a new contact is `created`; a contact with
 * a capture recorded less than 5 minutes ago is an `idempotent_replay` (whatever the key); a contact
 * in an open stage is an `existing_pipeline_contact`; any other existing contact is `created` again.
 */
export function decideLeadOutcome(facts: OutcomeFacts): LeadCaptureStatus {
  if (facts.contactWasNew) return 'created';
  if (facts.lastCaptureAt !== null && facts.now.getTime() - facts.lastCaptureAt.getTime() < LEAD_DEDUP_WINDOW_MS) return 'idempotent_replay';
  if (facts.inOpenStage) return 'existing_pipeline_contact';
  return 'created';
}
