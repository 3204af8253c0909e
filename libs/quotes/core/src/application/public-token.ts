import { createHash, randomBytes } from 'node:crypto';
import type { AccountId } from '@leadflow/shared-kernel';
import { asAccountId } from '@leadflow/shared-kernel';

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * The public page's token, `<account id, 16 bytes base64url>.<32 random bytes base64url>` (66
 * characters, 256 unguessable bits). The account part lets the lookup stay account-scoped like every
 * query; only the SHA-256 of the whole token is stored, so the database alone cannot rebuild a link.
 */
export function newPublicToken(accountId: AccountId): { token: string; hash: string } {
  const account = Buffer.from(accountId.replace(/-/g, ''), 'hex').toString('base64url');
  const token = `${account}.${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashPublicToken(token) };
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
