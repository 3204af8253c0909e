import { BOOKING_EVENTS } from '@leadflow/bookings-contracts';
import { CONTACT_EVENTS, PRESUASION_SUBMISSION_CREATED_EVENT } from '@leadflow/contacts-contracts';
import { CUSTOM_EVENT_RECEIVED_EVENT } from '@leadflow/events-contracts';
import { QUOTE_EVENTS } from '@leadflow/quotes-contracts';
import { consumerQueueName } from '@leadflow/shared-platform';

/**
 * Consumer of the events that change a contact's lead score (README › Decisions › Lead score). Its
 * queue is `integration-events.lead-score`; each event's payload names the contact (`contact_id`).
 */
export const LEAD_SCORE_CONSUMER = 'lead-score';

export const LEAD_SCORE_QUEUE = consumerQueueName(LEAD_SCORE_CONSUMER);

/**
 * The engagement and profile events the score follows. Not `lead_created`, `contact_created` or
 * `stage_changed`: a new contact's score is set by its INSERT (Contact.create / Contact.fromLead),
 * and lead capture, the hot path, feeds no extra consumer.
 */
export const LEAD_SCORE_EVENTS: readonly string[] = [
  QUOTE_EVENTS.viewed,
  QUOTE_EVENTS.signed,
  BOOKING_EVENTS.created,
  BOOKING_EVENTS.cancelled,
  BOOKING_EVENTS.outcomeRecorded,
  CUSTOM_EVENT_RECEIVED_EVENT,
  PRESUASION_SUBMISSION_CREATED_EVENT,
  CONTACT_EVENTS.updated,
  CONTACT_EVENTS.disqualified,
];

/** Queue of the scheduled review pass (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const LEAD_SCORE_REVIEW_QUEUE = 'contacts-lead-score-review';

/** Job name and scheduler id of the review pass. */
export const REVIEW_LEAD_SCORES_JOB = 'review-lead-scores';

/** Hourly, at minute 17: the scores whose recency part dropped (7, 30 or 90 days after the last touch) are recomputed. */
export const LEAD_SCORE_REVIEW_SCHEDULE = { pattern: '17 * * * *', tz: 'America/Montreal' } as const;

/** The job carries no data: each run reads the clock. */
export type ReviewLeadScoresJob = Record<string, never>;
