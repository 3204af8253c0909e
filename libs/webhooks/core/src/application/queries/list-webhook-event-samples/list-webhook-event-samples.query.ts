import { Query } from '@nestjs/cqrs';
import { AccountId, Page, ValidationFailedError } from '@leadflow/shared-kernel';
import { isWebhookEventName, WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import type { WebhookPayload } from '../../../domain/webhook-payload';

/** `limit` of the sample feed (public-api-v1 › Limits): 1 to 25, default 10. */
export const SAMPLES_DEFAULT_LIMIT = 10;
export const SAMPLES_MAX_LIMIT = 25;

/** `GET /v1/webhook-events`: `event` a catalog name or null (all), `limit` 1–25. */
export class ListWebhookEventSamplesQuery extends Query<Page<WebhookPayload>> {
  constructor(
    readonly accountId: AccountId,
    readonly event: string | null,
    readonly limit: number,
  ) {
    super();
  }

  /**
   * Reads the query string: `event` (a catalog name, else 400 `validation_error` `[{ field: 'event',
   * reason: 'unknown_event_type' }]`) and `limit` (integer 1–25, default 10, else 400 `validation_error`
   * `[{ field: 'limit', reason: 'invalid_value' }]`), both reported together.
   */
  static fromRequest(accountId: AccountId, query: Record<string, unknown>): ListWebhookEventSamplesQuery {
    const violations = [];
    let event: string | null = null;
    if (query.event !== undefined) {
      if (!isWebhookEventName(query.event)) {
        violations.push({ field: 'event', reason: 'unknown_event_type', message: `event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` });
      } else event = query.event;
    }
    let limit = SAMPLES_DEFAULT_LIMIT;
    if (query.limit !== undefined) {
      const raw = query.limit;
      if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > SAMPLES_MAX_LIMIT) {
        violations.push({ field: 'limit', reason: 'invalid_value', message: `limit must be an integer from 1 to ${SAMPLES_MAX_LIMIT}.` });
      } else limit = Number(raw);
    }
    if (violations.length > 0) throw new ValidationFailedError(violations);
    return new ListWebhookEventSamplesQuery(accountId, event, limit);
  }
}
