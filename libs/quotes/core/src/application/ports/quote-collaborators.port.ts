import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactCard, FoundOrCreatedContact, ProspectIdentity } from '@leadflow/contacts-contracts';
import type { OutgoingEmailRequest, QueuedEmail } from '@leadflow/messaging-contracts';
import type { QuoteDefaults, QuoteState } from '../../domain/quote.aggregate';
import { hashPublicToken } from '../public-token';

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

/** Public URLs (`PUBLIC_BASE_URL`) and the page token of a quote (derived from a server key, never stored). */
export abstract class QuotePublicLinks {
  /** `<PUBLIC_BASE_URL>/q/<token>`. */
  abstract pageUrl(token: string): string;

  /** The quote's page token (see derivePublicToken): the same for the same quote as long as the server key is kept. */
  abstract tokenFor(accountId: AccountId, quoteId: string): string;

  /**
   * `public_url` of a quote: the page URL once sent (its stored token hash set), null before. Also null
   * when the stored hash is not that of the derived token (a quote sent before tokens were derived, or
   * the server key changed): its link then exists only in its email, and the service cannot rebuild it.
   */
  urlOf(state: Pick<QuoteState, 'accountId' | 'id' | 'publicTokenHash'>): string | null {
    if (state.publicTokenHash === null) return null;
    const token = this.tokenFor(state.accountId, state.id);
    return hashPublicToken(token) === state.publicTokenHash ? this.pageUrl(token) : null;
  }
}
