import { Query } from '@nestjs/cqrs';
import { AccountId, FieldViolation, KeysetPosition, Page, ValidationFailedError } from '@leadflow/shared-kernel';
import { isWebhookEventName, WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import type { PublicDeliveryFilter, PublicDeliveryStatus, PublicDeliveryView } from '../../ports/webhook-read-models.port';

const STATUSES: readonly PublicDeliveryStatus[] = ['pending', 'succeeded', 'failed', 'exhausted'];
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** `GET /v1/webhooks/{id}/deliveries` of key `apiKeyId`. */
export class ListPublicWebhookDeliveriesQuery extends Query<Page<PublicDeliveryView>> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
    readonly subscriptionId: string,
    readonly filter: PublicDeliveryFilter,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }

  /**
   * Reads the filters: `status` (one of pending, succeeded, failed, exhausted: reason `invalid_value`),
   * `event` (a catalog name: `unknown_event_type`), `from` / `to` (ISO 8601 date or date-time:
   * `invalid_format`; a date alone covers its whole UTC day; `from` after `to`: `invalid_range` on `from`),
   * all reported together as 400
   * `validation_error`.
   */
  static readFilter(query: Record<string, unknown>): PublicDeliveryFilter {
    const violations: FieldViolation[] = [];
    const filter: PublicDeliveryFilter = { status: null, event: null, from: null, to: null };
    if (query.status !== undefined) {
      if (typeof query.status === 'string' && (STATUSES as readonly string[]).includes(query.status)) filter.status = query.status as PublicDeliveryStatus;
      else violations.push({ field: 'status', reason: 'invalid_value', message: `status must be one of: ${STATUSES.join(', ')}.` });
    }
    if (query.event !== undefined) {
      if (isWebhookEventName(query.event)) filter.event = query.event;
      else violations.push({ field: 'event', reason: 'unknown_event_type', message: `event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` });
    }
    for (const field of ['from', 'to'] as const) {
      const raw = query[field];
      if (raw === undefined) continue;
      const date = typeof raw === 'string' && ISO.test(raw) ? new Date(raw) : null;
      if (!date || Number.isNaN(date.getTime())) violations.push({ field, reason: 'invalid_format', message: `${field} must be an ISO 8601 date or date-time.` });
      // A date alone is the whole UTC day: `from` its first millisecond, `to` its last.
      else filter[field] = field === 'to' && (raw as string).length === 10 ? new Date(date.getTime() + 86_400_000 - 1) : date;
    }
    if (filter.from && filter.to && filter.from > filter.to) violations.push({ field: 'from', reason: 'invalid_range', message: 'from must not be after to.' });
    if (violations.length > 0) throw new ValidationFailedError(violations);
    return filter;
  }
}
