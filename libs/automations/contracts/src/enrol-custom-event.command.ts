import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** The executions a custom event started: one `pending` execution per enrolled automation. */
export interface CustomEventEnrolment {
  /** Ids of the executions created, one per automation enrolled (empty when none matched or all were deduplicated). */
  executionIds: string[];
}

/**
 * Enrols a contact in every automation of the account that is active, published, not archived and
 * whose trigger is `{ type: 'custom_event', event: <eventName> }` (name compared case-sensitively),
 * skipping an automation that already enrolled this contact in the last 5 minutes (per-contact,
 * per-automation deduplication; public-api-v1 › POST /v1/events). Each execution is created `pending`
 * with trigger_type `custom_event` and `eventData` available to templates as `{{event.<key>}}`.
 * Runs inside the caller's unit of work (TransactionHost): the executions and their outbox/queue
 * hand-off commit with the caller's event record, or not at all. The caller must not call it for an
 * archived contact. Throws nothing for "no match".
 */
export class EnrolCustomEventCommand extends Command<CustomEventEnrolment> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    /** Case-sensitive custom event name (`event` of POST /v1/events). */
    readonly eventName: string,
    /** The stored (capped) event payload; top-level keys feed `{{event.<key>}}`. */
    readonly eventData: Record<string, unknown>,
    /** Id of the recorded custom event (traceability of the execution). */
    readonly eventId: string,
  ) {
    super();
  }
}
