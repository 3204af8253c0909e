import { createHash, createHmac } from 'node:crypto';
import type { AccountId } from '@leadflow/shared-kernel';
import { asAccountId } from '@leadflow/shared-kernel';

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * The public page's token of a quote, `<account id, 16 bytes base64url>.<32 bytes base64url>` (66
 * characters, 256 unguessable bits): the second part is HMAC-SHA256 under `secret` (a server key, never
 * stored) of the account and quote ids. The account part lets the lookup stay account-scoped like every
 * query. Only the SHA-256 of the whole token is stored, so the database alone cannot rebuild a link;
 * with the key, the service derives it again to show `public_url` (see QuotePublicLinks.urlOf).
 */
export function derivePublicToken(secret: Buffer, accountId: AccountId, quoteId: string): string {
  const account = Buffer.from(accountId.replace(/-/g, ''), 'hex').toString('base64url');
  const mac = createHmac('sha256', secret).update(`quote-page:${accountId}:${quoteId}`).digest('base64url');
  return `${account}.${mac}`;
}

export function hashPublicToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The account and hash of a token, or null when it does not have the token's shape. */
export function readPublicToken(token: string): { accountId: AccountId; hash: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const hex = Buffer.from(match[1], 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { accountId: asAccountId(uuid), hash: hashPublicToken(token) };
}
