import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';

/** How one authenticated request ended, for the usage log (public-api-v1 › Usage counter rules). */
export interface RequestOutcome {
  principal: ApiKeyPrincipal;
  method: string;
  route: string;
  statusCode: number;
  /** Refused by a rate limiter (key quota or per-IP limit): counted in `rate_limited_count`. */
  rateLimited: boolean;
  latencyMs: number;
  startedAt: Date;
}

/**
 * Port the request path calls for every authenticated request; the usage context implements it.
 * `started` runs once the key is known, `finished` when the response is sent. Neither may throw nor
 * slow the request: implementations are fire-and-forget.
 */
export abstract class UsageRecorder {
  abstract started(principal: ApiKeyPrincipal, at: Date): void;
  abstract finished(outcome: RequestOutcome): void;
}

/** Records nothing (used where the usage context is not loaded). */
export class NoopUsageRecorder extends UsageRecorder {
  started(): void {}
  finished(): void {}
}
