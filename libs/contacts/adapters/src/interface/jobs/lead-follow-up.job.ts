import { consumerQueueName } from '@leadflow/shared-platform';

/**
 * Consumer of `lead_created` outbox events that hands captured leads to the SMS bot. Its queue is
 * `integration-events.lead-follow-up`, filled by the worker's outbox fan-out with job id
 * `<eventId>.lead-follow-up` (one job per event). The job data is the relayed event
 * (`IntegrationEventJob`), payload `LeadCreatedPayload`.
 */
export const LEAD_FOLLOW_UP_CONSUMER = 'lead-follow-up';

export const LEAD_FOLLOW_UP_QUEUE = consumerQueueName(LEAD_FOLLOW_UP_CONSUMER);
