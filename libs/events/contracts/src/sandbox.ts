import { Command, Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { EventSpec } from './provision-events.command';

/** Test mode (issue 15, item 4): the account's events and editions in blueprint form. Never registrations. */
export class ExportEventsQuery extends Query<EventSpec[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** Test mode: deletes the (sandbox) account's registrations and received custom events in the caller's transaction; keeps events. */
export class ResetEventsDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
