import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** Who the lead is, as another context knows them (e.g. a quote's prospect fields). */
export interface ProspectIdentity {
  /** A contact already linked: used when it still exists (a merged one resolves to its survivor). */
  contactId?: string | null;
  /** Any case; invalid values are ignored for matching and creation. */
  email?: string | null;
  /** Any format; numbers that do not normalise to E.164 are ignored. */
  phone?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
}

export interface FoundOrCreatedContact {
  contact_id: string;
  /** True when this command created the contact (a `contact_created` activity and outbox event were written). */
  created: boolean;
  /** The email the contact was found or created with is on the account's unsubscribe list. */
  email_unsubscribed: boolean;
}

/**
 * Finds the lead's contact — the linked one, else by email (primary or secondary), else by phone — or
 * creates it (source `source`, the account's main System) with a `contact_created` activity and outbox
 * event, which fire the contact-created trigger and CRM sync. Never duplicates: the unique identity
 * index refuses a concurrent twin (409 `duplicate_resource`; retry to find the winner). Runs inside the
 * caller's unit of work (TransactionHost). 400 `validation_error` when neither a usable email nor phone is given.
 */
export class FindOrCreateContactCommand extends Command<FoundOrCreatedContact> {
  constructor(
    readonly accountId: AccountId,
    readonly prospect: ProspectIdentity,
    readonly actor: Actor,
    readonly source: string,
  ) {
    super();
  }
}
