import { AccountId, Actor, DomainError, newId, Page } from '@leadflow/shared-kernel';
import { InMemoryStore } from '@leadflow/shared-testing/fakes';
import type { ContactCard, FoundOrCreatedContact, ProspectIdentity } from '@leadflow/contacts-contracts';
import type { OutgoingEmailRequest, QueuedEmail } from '@leadflow/messaging-contracts';
import type { QuoteView } from '@leadflow/quotes-contracts';
import {
  QuoteAccounts,
  QuoteAccountSettings,
  QuoteContacts,
  QuoteMailer,
  QuotePublicLinks,
  QuoteSalesRep,
} from '../application/ports/quote-collaborators.port';
import { QuotePayment, QuoteRepository, QuoteRowLockedError } from '../application/ports/quote.repository.port';
import { QuoteListFilter, QuotesReadModel } from '../application/ports/quotes.read-model.port';
import { derivePublicToken } from '../application/public-token';
import { toQuoteView } from '../application/views';
import type { QuoteState } from '../domain/quote.aggregate';

/** Every row the fakes hold, one object so a unit of work can snapshot and restore it (entries and events: the journal's). */
export class InMemoryQuotesStore extends InMemoryStore {
  quotes: QuoteState[] = [];
  sequences: Record<string, number> = {};
  payments: (QuotePayment & { accountId: string })[] = [];
  /** Emails queued through the fake mailer. */
  emails: (OutgoingEmailRequest & { accountId: string; id: string })[] = [];
  /** Contacts the fake contacts context created. */
  createdContacts: (ProspectIdentity & { id: string; accountId: string })[] = [];
}

/** {@link QuoteRepository} over arrays; `locked` ids answer a `nowait` read like a row another transaction holds. */
export class InMemoryQuoteRepository extends QuoteRepository {
  readonly locked = new Set<string>();

  constructor(private readonly store: InMemoryQuotesStore) {
    super();
  }

  async nextSequence(accountId: AccountId, year: number): Promise<number> {
    const key = `${accountId}:${year}`;
    this.store.sequences[key] = (this.store.sequences[key] ?? 0) + 1;
    return this.store.sequences[key];
  }

  async insert(quote: QuoteState): Promise<void> {
    if (this.store.quotes.some((row) => row.accountId === quote.accountId && row.quoteNumber === quote.quoteNumber)) {
      throw new Error(`duplicate quote number ${quote.quoteNumber}`);
    }
    this.store.quotes.push(structuredClone(quote));
  }

  async update(quote: QuoteState): Promise<void> {
    this.store.quotes = this.store.quotes.map((row) => (row.accountId === quote.accountId && row.id === quote.id ? structuredClone(quote) : row));
  }

  async find(accountId: AccountId, quoteId: string, options: { lock?: 'wait' | 'nowait' } = {}): Promise<QuoteState | null> {
    if (options.lock === 'nowait' && this.locked.has(quoteId)) throw new QuoteRowLockedError();
    const row = this.store.quotes.find((quote) => quote.accountId === accountId && quote.id === quoteId.toLowerCase());
    return row ? structuredClone(row) : null;
  }

  async findByTokenHash(accountId: AccountId, tokenHash: string): Promise<QuoteState | null> {
    const row = this.store.quotes.find((quote) => quote.accountId === accountId && quote.publicTokenHash === tokenHash);
    return row ? structuredClone(row) : null;
  }

  async insertPayment(accountId: AccountId, payment: QuotePayment): Promise<void> {
    this.store.payments.push({ ...payment, accountId });
  }

  private expirable(quote: QuoteState, before: string): boolean {
    return ['draft', 'sent', 'viewed'].includes(quote.status) && !quote.archivedAt && quote.amountPaidCents === 0 && quote.validUntil !== null && quote.validUntil < before;
  }

  async expiryGroups(before: string): Promise<{ accountId: AccountId; timezone: string }[]> {
    const keys = new Map<string, { accountId: AccountId; timezone: string }>();
    for (const quote of this.store.quotes.filter((row) => this.expirable(row, before))) {
      keys.set(`${quote.accountId}:${quote.timezone}`, { accountId: quote.accountId, timezone: quote.timezone });
    }
    return [...keys.values()];
  }

  async lockExpiryCandidates(accountId: AccountId, timezone: string, today: string): Promise<QuoteState[]> {
    return this.store.quotes
      .filter((quote) => quote.accountId === accountId && quote.timezone === timezone && this.expirable(quote, today) && !this.locked.has(quote.id))
      .map((quote) => structuredClone(quote));
  }
}

export class InMemoryQuotesReadModel extends QuotesReadModel {
  constructor(
    private readonly store: InMemoryQuotesStore,
    private readonly links: QuotePublicLinks = new FakeQuotePublicLinks(),
  ) {
    super();
  }

  async list(accountId: AccountId, filter: QuoteListFilter): Promise<Page<QuoteView>> {
    const rows = this.store.quotes
      .filter((quote) => quote.accountId === accountId && !quote.archivedAt && (!filter.status || quote.status === filter.status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const data = rows.slice(0, filter.page.limit).map((quote) => toQuoteView(quote, this.links));
    return { data, pagination: { next_cursor: null, has_more: rows.length > data.length, limit: filter.page.limit, total_count: rows.length } };
  }
}

/** Accounts and team members held in memory. */
export class FakeQuoteAccounts extends QuoteAccounts {
  readonly accounts = new Map<string, QuoteAccountSettings>();
  readonly members = new Map<string, QuoteSalesRep & { accountId: string }>();

  async settings(accountId: AccountId): Promise<QuoteAccountSettings | null> {
    return this.accounts.get(accountId) ?? null;
  }

  async teamMember(accountId: AccountId, memberId: string): Promise<QuoteSalesRep | null> {
    const member = this.members.get(memberId);
    return member && member.accountId === accountId ? member : null;
  }
}

/**
 * Contacts held in memory: found by id, email, then phone, else created (recorded in the store, so a
 * rolled-back send forgets them). `unsubscribed` holds addresses on the unsubscribe list;
 * `failNextCreate` simulates a concurrent creation of the same lead (409 `duplicate_resource` once).
 */
export class FakeQuoteContacts extends QuoteContacts {
  readonly cards = new Map<string, ContactCard & { accountId: string }>();
  readonly unsubscribed = new Set<string>();
  failNextCreate = false;

  constructor(private readonly store: InMemoryQuotesStore) {
    super();
  }

  async card(accountId: AccountId, contactId: string): Promise<ContactCard | null> {
    const card = this.cards.get(contactId);
    return card && card.accountId === accountId ? card : null;
  }

  async findOrCreate(accountId: AccountId, prospect: ProspectIdentity, _actor: Actor): Promise<FoundOrCreatedContact> {
    const email = prospect.email?.toLowerCase() ?? null;
    const unsubscribed = email !== null && this.unsubscribed.has(email);
    const known = [...this.cards.values(), ...this.store.createdContacts.map((row) => ({ ...row, email: row.email ?? null, phone: row.phone ?? null }))].filter(
      (card) => card.accountId === accountId,
    );
    const found =
      known.find((card) => prospect.contactId && card.id === prospect.contactId) ??
      known.find((card) => email && card.email === email) ??
      known.find((card) => prospect.phone && card.phone === prospect.phone);
    if (found) return { contact_id: found.id, created: false, email_unsubscribed: unsubscribed };
    if (this.failNextCreate) {
      this.failNextCreate = false;
      const winner = { id: newId(), accountId, email, phone: prospect.phone ?? null };
      this.cards.set(winner.id, { ...winner, first_name: null, last_name: null, company: null, archived: false });
      throw new DomainError('duplicate_resource', 'This email belongs to another contact.', { conflicting_field: 'email' });
    }
    const id = newId();
    this.store.createdContacts.push({ ...prospect, email, id, accountId });
    return { contact_id: id, created: true, email_unsubscribed: unsubscribed };
  }
}

/** Records queued emails in the store; without a sender and without a default one it answers 400 `no_sender_configured`. */
export class FakeQuoteMailer extends QuoteMailer {
  hasDefaultSender = true;

  constructor(private readonly store: InMemoryQuotesStore) {
    super();
  }

  async queue(accountId: AccountId, email: OutgoingEmailRequest): Promise<QueuedEmail> {
    if (!email.from && !this.hasDefaultSender) throw new DomainError('no_sender_configured', 'No default sender.', null);
    const id = newId();
    this.store.emails.push({ ...email, accountId, id });
    return { id, status: 'queued', from: email.from ?? { email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay' } };
  }
}

/** Links under `https://leadflow.test`, tokens derived under a fixed test key. */
export class FakeQuotePublicLinks extends QuotePublicLinks {
  secret = Buffer.alloc(32, 7);

  pageUrl(token: string): string {
    return `https://leadflow.test/q/${token}`;
  }

  tokenFor(accountId: AccountId, quoteId: string): string {
    return derivePublicToken(this.secret, accountId, quoteId);
  }
}
