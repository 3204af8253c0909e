import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AccountId, Actor } from '@leadflow/shared-kernel';
import { GetAccountQuery, ListTeamMembersQuery } from '@leadflow/accounts-contracts';
import { ContactCard, FindOrCreateContactCommand, FoundOrCreatedContact, GetContactCardQuery, ProspectIdentity } from '@leadflow/contacts-contracts';
import { OutgoingEmailRequest, QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { SIGNATURE_PAYMENT_ORDERS, SignaturePaymentOrder, TAX_PROFILES, TaxProfile } from '@leadflow/quotes-contracts';
import { derivePublicToken, QuoteAccounts, QuoteAccountSettings, QuoteContacts, QuoteMailer, QuotePublicLinks, QuoteSalesRep } from '@leadflow/quotes-core';
import { AppConfig } from '@leadflow/shared-platform';

const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** {@link QuoteAccounts} through the accounts context's published queries. */
@Injectable()
export class CqrsQuoteAccounts extends QuoteAccounts {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  async settings(accountId: AccountId): Promise<QuoteAccountSettings | null> {
    const account = await this.queries.execute(new GetAccountQuery(accountId));
    if (!account) return null;
    const defaults = account.quote_defaults ?? {};
    return {
      name: account.name,
      timezone: account.timezone || 'America/Montreal',
      defaults: {
        validityDays: typeof defaults.validity_days === 'number' && defaults.validity_days > 0 ? defaults.validity_days : 30,
        paymentTerms: defaults.payment_terms ?? null,
        signaturePaymentOrder: oneOf<SignaturePaymentOrder>(SIGNATURE_PAYMENT_ORDERS, defaults.signature_payment_order, 'signature_first'),
        taxProfile: oneOf<TaxProfile>(TAX_PROFILES, defaults.tax_profile, 'gst_qst'),
      },
    };
  }

  async teamMember(accountId: AccountId, memberId: string): Promise<QuoteSalesRep | null> {
    const members = await this.queries.execute(new ListTeamMembersQuery(accountId));
    const member = members.find((candidate) => candidate.id.toLowerCase() === memberId.toLowerCase());
    if (!member) return null;
    return {
      id: member.id,
      email: member.email,
      name: [member.firstName, member.lastName].filter(Boolean).join(' ') || null,
      isActive: member.isActive,
      isSalesRep: member.isSalesRep,
    };
  }
}

/** {@link QuoteContacts} through the contacts context's published query and command. */
@Injectable()
export class CqrsQuoteContacts extends QuoteContacts {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {
    super();
  }

  card(accountId: AccountId, contactId: string): Promise<ContactCard | null> {
    return this.queries.execute(new GetContactCardQuery(accountId, contactId));
  }

  findOrCreate(accountId: AccountId, prospect: ProspectIdentity, actor: Actor): Promise<FoundOrCreatedContact> {
    return this.commands.execute(new FindOrCreateContactCommand(accountId, prospect, actor, 'quote'));
  }
}

/** {@link QuoteMailer} through messaging's QueueEmailCommand (joins the caller's transaction). */
@Injectable()
export class CqrsQuoteMailer extends QuoteMailer {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  queue(accountId: AccountId, email: OutgoingEmailRequest): Promise<QueuedEmail> {
    return this.commands.execute(new QueueEmailCommand(accountId, email));
  }
}

/**
 * {@link QuotePublicLinks} from `PUBLIC_BASE_URL`; page tokens derived under a key of their own, itself
 * derived from `SECRET_ENCRYPTION_KEY` (HMAC-SHA256 with a fixed label), so the key that encrypts
 * secrets at rest is never used twice for two purposes.
 */
@Injectable()
export class ConfigQuotePublicLinks extends QuotePublicLinks {
  private readonly tokenKey: Buffer;

  constructor(private readonly config: AppConfig) {
    super();
    this.tokenKey = createHmac('sha256', config.secretEncryptionKey).update('leadflow quote page tokens v1').digest();
  }

  pageUrl(token: string): string {
    return `${this.config.publicBaseUrl}/q/${encodeURIComponent(token)}`;
  }

  tokenFor(accountId: AccountId, quoteId: string): string {
    return derivePublicToken(this.tokenKey, accountId, quoteId);
  }
}
