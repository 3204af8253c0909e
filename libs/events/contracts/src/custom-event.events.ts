/**
 * `custom_event_received`: a custom event was recorded on a contact (`POST /v1/events`). Written to
 * `platform.outbox` by the events context in the ingestion's transaction; an internal fact (not in the
 * webhook catalog), consumed by the contacts context's lead score.
 */
export const CUSTOM_EVENT_RECEIVED_EVENT = 'custom_event_received';

/** Activity-log / timeline type of a recorded custom event. */
export const CUSTOM_EVENT_ACTIVITY_TYPE = 'custom_event';

export interface CustomEventReceivedPayload extends Record<string, unknown> {
  contact_id: string;
  /** The recorded event's id (`events.custom_events`). */
  event_id: string;
  /** The event's name, case-sensitive. */
  event: string;
}
