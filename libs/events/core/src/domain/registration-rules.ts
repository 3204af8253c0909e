import type { EditionStatus, EventStatus } from '@leadflow/events-contracts';
import { fieldError, RegistrationResourceNotFoundError, RegistrationRuleViolationError } from './events.errors';

/** An event of the account with its editions (operator blueprint member `events`). */
export interface EventState {
  id: string;
  accountId: string;
  slug: string;
  name: string;
  status: EventStatus;
  /** At least one; the first is the default language of registrations. */
  languages: string[];
  editions: EditionState[];
  createdAt: Date;
}

export interface EditionState {
  id: string;
  eventId: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
  status: EditionStatus;
  position: number;
}

/**
 * The edition a registration goes to (public-api-v1 › POST /v1/event-registrations), checked in this
 * order: event `draft` → 422 `event_not_published`; event `archived` → 422 `event_closed`; then the
 * edition asked (`editionId`: not one of the event's → 404 `resource_not_found` `edition`; `cancelled`
 * → 422 `event_closed`; `ended`, or its end at or before `now` → 422 `event_edition_ended`), or by
 * default the next open edition: `open`, ending after `now`, the earliest start first (an edition in
 * progress still takes registrations); none → 422 `event_closed` (no upcoming edition).
 */
export function editionForRegistration(event: EventState, editionId: string | null, now: Date): EditionState {
  if (event.status === 'draft') throw new RegistrationRuleViolationError('event_not_published', 'The event is not published.');
  if (event.status === 'archived') throw new RegistrationRuleViolationError('event_closed', 'The event is archived.');
  if (editionId !== null) {
    const edition = event.editions.find((candidate) => candidate.id === editionId.toLowerCase());
    if (!edition) throw new RegistrationResourceNotFoundError('edition');
    if (edition.status === 'cancelled') throw new RegistrationRuleViolationError('event_closed', 'This edition is cancelled.');
    if (edition.status === 'ended' || edition.endsAt.getTime() <= now.getTime()) {
      throw new RegistrationRuleViolationError('event_edition_ended', 'This edition has ended.');
    }
    return edition;
  }
  const upcoming = event.editions
    .filter((edition) => edition.status === 'open' && edition.endsAt.getTime() > now.getTime())
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.position - b.position);
  if (upcoming.length === 0) throw new RegistrationRuleViolationError('event_closed', 'The event has no upcoming open edition.');
  return upcoming[0];
}

/**
 * The registration's language: the one asked, which must be one of the event's languages (else 400
 * `validation_error` field `language` reason `invalid_value`), or the event's first language.
 */
export function languageForRegistration(event: EventState, language: string | null): string {
  if (language === null) return event.languages[0];
  if (!event.languages.includes(language)) {
    throw fieldError('language', 'invalid_value', `language must be one of the event's languages: ${event.languages.join(', ')}.`);
  }
  return language;
}
