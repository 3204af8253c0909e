import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { RedisConnection } from '@leadflow/shared-platform';

/** How long a console session lasts after login (seconds): 8 hours, not extended by use. */
export const CONSOLE_SESSION_TTL_SECONDS = 8 * 3600;
/** Wrong admin tokens tolerated per client address and window before the login page answers 429. */
export const CONSOLE_LOGIN_ATTEMPTS = 10;
/** Window of the failure counter (seconds). */
export const CONSOLE_LOGIN_WINDOW_SECONDS = 600;

/** A live console session: its id (the cookie's value, never stored as is) and its CSRF token. */
export interface ConsoleSession {
  id: string;
  csrf: string;
}

/** 32 random bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

/**
 * Server-side console sessions in Redis: `<prefix>:console:session:<sha256 of the id>` → the session's
 * CSRF token, expiring {@link CONSOLE_SESSION_TTL_SECONDS} after login. The cookie carries only the
 * opaque random id (never the admin token); a leak of Redis does not give usable cookies (only hashes).
 * Also the login failure counter per client address (`console:login_failures:<ip>`), checked before a
 * token is compared. Redis errors propagate (the console answers 503 then).
 */
@Injectable()
export class ConsoleSessionStore {
  constructor(private readonly redis: RedisConnection) {}

  /** Opens a session: a new random id and CSRF token, stored with the TTL. */
  async open(): Promise<ConsoleSession> {
    const session = { id: randomToken(), csrf: randomToken() };
    await this.redis.client.set(this.sessionKey(session.id), session.csrf, 'EX', CONSOLE_SESSION_TTL_SECONDS);
    return session;
  }

  /** The session of a cookie value, or null (absent, malformed, expired or closed). */
  async find(id: string | undefined): Promise<ConsoleSession | null> {
    if (id === undefined || !WELL_FORMED.test(id)) return null;
    const csrf = await this.redis.client.get(this.sessionKey(id));
    return csrf === null ? null : { id, csrf };
  }

  /** Closes a session (logout): the cookie stops working at once. */
  async close(id: string): Promise<void> {
    await this.redis.client.del(this.sessionKey(id));
  }

  /** True while the address has fewer than {@link CONSOLE_LOGIN_ATTEMPTS} failures in the current window. */
  async mayTryLogin(ip: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const key = this.failureKey(ip);
    const [count, ttl] = await Promise.all([this.redis.client.get(key), this.redis.client.ttl(key)]);
    const allowed = Number(count ?? 0) < CONSOLE_LOGIN_ATTEMPTS;
    return { allowed, retryAfterSeconds: ttl > 0 ? ttl : CONSOLE_LOGIN_WINDOW_SECONDS };
  }

  /** Counts one wrong token of the address (the window starts with its first failure). */
  async recordFailure(ip: string): Promise<void> {
    const key = this.failureKey(ip);
    // The window is created with its expiry (NX), then counted: INCR keeps the expiry.
    await this.redis.client.multi().set(key, '0', 'EX', CONSOLE_LOGIN_WINDOW_SECONDS, 'NX').incr(key).exec();
  }

  private sessionKey(id: string): string {
    return this.redis.key('console', 'session', digest(id));
  }

  private failureKey(ip: string): string {
    return this.redis.key('console', 'login_failures', ip);
  }
}
