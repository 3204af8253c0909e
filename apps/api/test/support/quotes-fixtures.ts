import { CommandBus } from '@nestjs/cqrs';
import { ArchiveQuoteCommand, LEAD_ACTOR } from '@leadflow/quotes-contracts';
import { SetEmailUnsubscribedCommand } from '@leadflow/contacts-contracts';
import { asAccountId } from '@leadflow/shared-kernel';
import { db, expectStatus } from './contacts-fixtures';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- test bodies are asserted field by field */

/** `quote_defaults` of the test accounts (operator-api › POST /admin/v1/accounts). */
export const QUOTE_DEFAULTS = { validity_days: 15, payment_terms: 'Payable à la signature', signature_payment_order: 'signature_first', tax_profile: 'gst_qst' };

/** Team members: an active sales rep, an inactive one, and a member who is not a sales rep. */
export const REP = 'julie@tremblay.test';
export const INACTIVE_REP = 'marc@tremblay.test';
export const NOT_A_REP = 'comptable@tremblay.test';

/** An account with the quotes module, quote defaults, a default sender, sales reps and keys of several scope sets. */
export function quotesBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timezone: 'America/Montreal',
    quote_defaults: QUOTE_DEFAULTS,
    team_members: [
      { email: REP, first_name: 'Julie', last_name: 'Roy', is_active: true, is_sales_rep: true },
      { email: INACTIVE_REP, first_name: 'Marc', last_name: 'Gagnon', is_active: false, is_sales_rep: true },
      { email: NOT_A_REP, first_name: 'Luc', last_name: 'Compte', is_active: true, is_sales_rep: false },
    ],
    senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }],
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'reader', scopes: ['quotes:read'], per_hour: 100000 },
      { name: 'writer', scopes: ['quotes:write'], per_hour: 100000 },
      { name: 'contacts', scopes: ['contacts:read', 'contacts:write'], per_hour: 100000 },
    ],
    ...extra,
  };
}

/** A priced, taxed quote body that can be sent. */
export const SENDABLE = {
  prospect_name: 'Nadia Bélanger',
  prospect_email: 'Nadia.Belanger@example.com',
  prospect_phone: '514 555-0142',
  line_items: [
    { description: 'Armoires de cuisine', quantity: 1, unit_price: 4200 },
    { description: 'Pose (heures)', quantity: 2.5, unit_price: 85 },
  ],
};

export async function createQuote(api: TestApi, token: string, body: Record<string, unknown> = SENDABLE): Promise<Record<string, any>> {
  return expectStatus(await api.request({ method: 'POST', path: '/v1/quotes', token, body }), 201).body.data;
}

export function sendQuote(api: TestApi, token: string, quoteId: string): Promise<TestResponse> {
  return api.request({ method: 'POST', path: `/v1/quotes/${quoteId}/send`, token });
}

export function patchQuote(api: TestApi, token: string, quoteId: string, body: unknown): Promise<TestResponse> {
  return api.request({ method: 'PATCH', path: `/v1/quotes/${quoteId}`, token, body });
}

export function leadAction(api: TestApi, account: ProvisionedAccount, quoteId: string, action: string): Promise<TestResponse> {
  return api.admin('POST', `/accounts/${account.account_id}/quotes/${quoteId}/lead-actions`, { action });
}

export async function getQuote(api: TestApi, token: string, quoteId: string): Promise<Record<string, any>> {
  return expectStatus(await api.request({ path: `/v1/quotes/${quoteId}`, token }), 200).body.data;
}

/** The dashboard's archive (the published ArchiveQuoteCommand: no public route archives a quote). */
export function archiveQuote(api: TestApi, account: ProvisionedAccount, quoteId: string): Promise<unknown> {
  return api.app.get(CommandBus).execute(new ArchiveQuoteCommand(asAccountId(account.account_id), quoteId, LEAD_ACTOR));
}

/** Puts an address on the account's unsubscribe list (messaging's unsubscribe link will dispatch the same command). */
export function unsubscribe(api: TestApi, account: ProvisionedAccount, email: string): Promise<unknown> {
  return api.app.get(CommandBus).execute(new SetEmailUnsubscribedCommand(asAccountId(account.account_id), email, true));
}

/** The quote emails queued for the account (messaging.outgoing_emails), newest last. */
export function quoteEmails(api: TestApi, account: ProvisionedAccount): Promise<{ id: string; to: string; subject: string; html: string; from_email: string; type: string }[]> {
  return db(api).query(
    `SELECT id, "to", subject, html, from_email, type FROM messaging.outgoing_emails WHERE account_id = $1 AND type = 'quote' ORDER BY created_at, id`,
    [account.account_id],
  );
}

/** The public page link in an email's HTML: `<PUBLIC_BASE_URL>/q/<token>`. */
export function pageLink(html: string): string {
  const match = /href="([^"]*\/q\/[A-Za-z0-9_.-]+)"/.exec(html);
  if (!match) throw new Error(`no quote link in ${html}`);
  return match[1].replace(/&amp;/g, '&');
}

/** The path part of the emailed link (`/q/<token>`), for injection. */
export function pagePath(html: string): string {
  return new URL(pageLink(html)).pathname;
}

const WRITE_TABLES = [
  'quotes.quotes',
  'quotes.quote_sequences',
  'quotes.quote_payments',
  'contacts.contacts',
  'messaging.outgoing_emails',
  'platform.outbox',
  'platform.activity_log',
] as const;

/** Row counts of every table the quotes routes write (compare before and after a refused request). */
export async function quoteWriteCounts(api: TestApi): Promise<Record<string, number>> {
  const sql = db(api);
  return Object.fromEntries(await Promise.all(WRITE_TABLES.map(async (table) => [table, await sql.count(table)] as const)));
}

/** The quote rows as stored (to compare before and after a refused request). */
export function quoteRows(api: TestApi, accountId: string): Promise<Record<string, unknown>[]> {
  return db(api).query(`SELECT * FROM quotes.quotes WHERE account_id = $1 ORDER BY id`, [accountId]);
}
