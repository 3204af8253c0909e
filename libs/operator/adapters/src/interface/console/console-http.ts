import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { CONSOLE_BASE } from './console-html';

/** Cookie of the session id (opaque, random; the session lives in Redis). */
export const SESSION_COOKIE = 'lf_console_session';
/** Cookie of the login form's CSRF token (double submit: the form carries the same value). */
export const LOGIN_COOKIE = 'lf_console_login';
/** Lifetime of the login form's CSRF cookie (seconds). */
export const LOGIN_COOKIE_TTL_SECONDS = 3600;

/**
 * Headers of every console page, beside helmet's set (CSP `default-src 'self'`, `script-src 'self'`,
 * `form-action 'self'`, `frame-ancestors 'self'`, no-referrer…) that the request hook gives every non-API
 * response: pages hold keys and personal data, so nothing stores or indexes them, and no frame shows them.
 */
export const CONSOLE_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'x-frame-options': 'DENY',
});

/** The value of one cookie of the request (first occurrence), undefined when absent. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * A `Set-Cookie` value scoped to the console: `Path=/console`, `HttpOnly`, `SameSite=Strict`, `Secure`
 * when the request came over https (`request.protocol`: the socket, or `X-Forwarded-Proto` from a proxy
 * listed in TRUST_PROXY). `maxAgeSeconds` 0 deletes the cookie.
 */
export function consoleCookie(request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=${CONSOLE_BASE}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** Constant-time equality of two secrets of any length (their sha256 digests are compared). */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The form body as a flat record of strings (anything else reads as an empty form). */
export function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) if (typeof value === 'string') fields[name] = value;
  return fields;
}
