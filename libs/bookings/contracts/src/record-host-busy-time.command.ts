import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** Kinds of host busy times: a blocked time set in the service, or busy in the host's external (Google) calendar. */
export const HOST_BUSY_KINDS = ['blocked_time', 'google_busy'] as const;
export type HostBusyKind = (typeof HOST_BUSY_KINDS)[number];

/** A host busy time as the operator API answers it. Instants ISO 8601 UTC. */
export interface HostBusyTimeView {
  id: string;
  host_id: string;
  kind: HostBusyKind;
  start_datetime: string;
  end_datetime: string;
}

/**
 * Records a blocked or externally busy period of a host of a calendar through the ExternalCalendarPort
 * (operator route `POST /admin/v1/accounts/{id}/calendars/{calendar_id}/busy-times`; what a calendar sync
 * would push). The period applies to the host on every calendar. `start`/`end`: ISO 8601, UTC without
 * an offset. 404 `resource_not_found` (`details.resource` `calendar`: missing, another account's, not a
 * UUID); 400 `validation_error` with single-cause details: `host_id` `not_on_calendar`, `start_datetime` /
 * `end_datetime` `invalid_datetime`, `end_datetime` `invalid_value` (not after the start).
 */
export class RecordHostBusyTimeCommand extends Command<HostBusyTimeView> {
  constructor(
    readonly accountId: AccountId,
    readonly calendarId: string,
    readonly hostId: string,
    readonly kind: HostBusyKind,
    readonly start: string,
    readonly end: string,
  ) {
    super();
  }
}
