import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactCard, FoundOrCreatedContact, ProspectIdentity } from '@leadflow/contacts-contracts';
import type { OutgoingEmailRequest, QueuedEmail } from '@leadflow/messaging-contracts';
import type { QuoteDefaults } from '../../domain/quote.aggregate';

/** What a quote needs from its account (accounts context: name, time zone, `quote_defaults`). */
export interface QuoteAccountSettings {
  name: string;
  /** IANA zone; `America/Montreal` when the account has none. */
  timezone: string;
  defaults: QuoteDefaults;
}

/** A team member who may be a quote's sales rep. */
export interface QuoteSalesRep {
  id: string;
  email: string;
  name: string | null;
  isActive: boolean;
  isSalesRep: boolean;
}

/** The accounts context, through its published queries. */
export abstract class QuoteAccounts {
  /** Null when the account does not exist. */
  abstract settings(accountId: AccountId): Promise<QuoteAccountSettings | null>;
  /** Null when no team member of the account has this id. */
  abstract teamMember(accountId: AccountId, memberId: string): Promise<QuoteSalesRep | null>;
}

/** The contacts context, through its published query and command. */
export abstract class QuoteContacts {
  abstract card(accountId: AccountId, contactId: string): Promise<ContactCard | null>;
  /** Joins the caller's unit of work; a new contact fires the contact-created trigger. */
  abstract findOrCreate(accountId: AccountId, prospect: ProspectIdentity, actor: Actor): Promise<FoundOrCreatedContact>;
}

/** The outgoing-email path (messaging's QueueEmailCommand), in the caller's unit of work. 400 `no_sender_configured` when no sender. */
export abstract class QuoteMailer {
  abstract queue(accountId: AccountId, email: OutgoingEmailRequest): Promise<QueuedEmail>;
}

/** Public URLs (`PUBLIC_BASE_URL`). */
export abstract class QuotePublicLinks {
  /** `<PUBLIC_BASE_URL>/q/<token>`. */
  abstract pageUrl(token: string): string;
}
