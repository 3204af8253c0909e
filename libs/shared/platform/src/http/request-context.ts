import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { DomainError } from '@leadflow/shared-kernel';

/** What the request path attaches to a Fastify request (see fastify-setup and ApiRequestGuard). */
export interface RequestState {
  /** Resolved by ApiRequestGuard for `/v1` routes. */
  principal?: ApiKeyPrincipal;
  /** Raw request body bytes as text (signature checks verify these, never a re-serialisation). */
  rawBody?: string;
  /** A body problem found while parsing, raised after authentication by ApiRequestGuard. */
  bodyError?: 'invalid_json' | 'forbidden_json_member' | 'too_deep' | 'unsupported_media_type' | 'missing_content_type';
  /** The Content-Type header as sent (a malformed one is removed from the headers before parsing). */
  contentType?: string;
  /** The request came through the legacy `/api/v1` prefix. */
  legacy?: boolean;
  /** Set when a rate limiter refused the request (usage family `rate_limited_count`). */
  rateLimited?: boolean;
  /** High-resolution start, for the usage log's latency. */
  startedAt?: bigint;
  /** When the request arrived, by the injected Clock (the usage log's `startedAt`). */
  receivedAt?: Date;
  /** The error the response rendered (set by sendError): the metrics count auth failures and quota refusals by its code. */
  error?: DomainError;
}

declare module 'fastify' {
  interface FastifyRequest {
    leadflow: RequestState;
  }
}
