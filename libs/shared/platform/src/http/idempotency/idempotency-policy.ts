import { createHash } from 'node:crypto';

/**
 * The `POST /v1` routes where a valid `Idempotency-Key` is validated and then ignored (every other
 * `POST /v1` route honours it; see IdempotencyInterceptor, the one place the rule is applied). Keyed by
 * `<method> <route pattern>` as Fastify registered it (`request.routeOptions.url`, the legacy `/api`
 * prefix already removed); the value is why, as written in README › Decisions and in both OpenAPI
 * descriptions. The e2e test `idempotency-key-every-post` checks that every entry names a registered
 * route, and covers every `POST /v1` route against this list. Routes whose answer carries a secret
 * (`POST /v1/webhooks`, `…/rotate-secret`) are honoured: replays are stored encrypted
 * (docs/adr/0002-idempotent-creates-with-secrets.md).
 */
export const IDEMPOTENCY_KEY_IGNORED: Readonly<Record<string, string>> = {
  'POST /v1/emails/send': 'public-api-v1 › Emails: Idempotency-Key is not supported here; every request queues a new email.',
};

/** True for a route of {@link IDEMPOTENCY_KEY_IGNORED}; `routeUrl` is the registered pattern (`/v1/automations/:id/trigger`). */
export function idempotencyKeyIgnored(method: string, routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && Object.prototype.hasOwnProperty.call(IDEMPOTENCY_KEY_IGNORED, `${method} ${routeUrl}`);
}

/** The registered route patterns of the operator API (operator-api › Operator API). */
export const OPERATOR_ROUTE_PREFIX = '/admin/v1/';

/**
 * The scope (the `account_id` column of `platform.idempotency_keys`) of the Idempotency-Keys sent with
 * the operator token `adminToken`: a UUID of version 8 (RFC 9562, custom) made of the first 122 bits of
 * `sha256("leadflow operator idempotency scope\n" + adminToken)`. Account ids are version 7 (`newId`), so
 * this scope can never be an account's: an operator's key never replays, nor conflicts with, an API key's.
 * One scope per operator token: once `ADMIN_TOKEN` changes, the keys sent with the old one are not seen.
 */
export function operatorIdempotencyScope(adminToken: string): string {
  const hex = createHash('sha256').update(`leadflow operator idempotency scope\n${adminToken}`).digest('hex');
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
