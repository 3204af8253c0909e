/**
 * `@leadflow/sdk`: a TypeScript client of the Leadflow public API v1.
 *
 * - {@link createLeadflowClient}: typed calls (types generated from `openapi.en.yaml`), auth header,
 *   retries honouring `Retry-After`, automatic `Idempotency-Key` on lead capture, cursor pagination.
 * - {@link verifyWebhook}: checks a webhook delivery's signature and returns its body.
 * - {@link LeadflowApiError}: what every non-2xx answer throws.
 */
export {
  createLeadflowClient,
  type LeadflowClient,
  type LeadflowClientOptions,
  type LeadflowInit,
  type LeadflowPath,
  type LeadflowRawClient,
  type LeadflowResponse,
  type PageItem,
  type PaginatedPath,
} from './client';
export { LeadflowApiError, parseRetryAfterSeconds } from './errors';
export { createRetryingFetch, IDEMPOTENCY_KEY_HEADER, isRetrySafe, type FetchLike, type RetryPolicy } from './retry';
export {
  LEADFLOW_SIGNATURE_HEADER,
  LeadflowWebhookVerificationError,
  STANDARD_WEBHOOK_HEADERS,
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from './webhooks';
export type { components, operations, paths } from './generated/schema';
