import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** Event statuses (operator-api › blueprint value sets). */
export const EVENT_STATUSES = ['draft', 'published', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Edition statuses (operator-api › blueprint value sets). */
export const EDITION_STATUSES = ['open', 'cancelled', 'ended'] as const;
export type EditionStatus = (typeof EDITION_STATUSES)[number];

/** Slug of an event: lowercase letters, digits and dashes, 1 to 100 characters. */
export const EVENT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const EVENT_SLUG_MAX_LENGTH = 100;

/** Language codes of events (`fr`, `en`, `fr-CA`…): 2–3 letters, optional region. */
export const EVENT_LANGUAGE_PATTERN = /^[a-z]{2,3}(?:-[A-Za-z]{2})?$/;

/** One edition of an event (blueprint `events[].editions[]`). */
export interface EditionSpec {
  name: string;
  /** ISO 8601 instants; `startsAt` strictly before `endsAt`. */
  startsAt: string;
  endsAt: string;
  status: EditionStatus;
}

/** One item of the blueprint's `events` member. */
export interface EventSpec {
  slug: string;
  name: string;
  status: EventStatus;
  /** At least one, distinct; the first is the default language of registrations. */
  languages: string[];
  editions: EditionSpec[];
}

/** `{ <slug>: { id, editions: [ids in blueprint order] } }`. */
export type ProvisionedEvents = Record<string, { id: string; editions: string[] }>;

/**
 * Creates the account's events and their editions (operator blueprint member `events`) inside the
 * caller's unit of work. Refusals (400 `validation_error`, `details` `[{ field, reason }]` with fields
 * like `events[0].slug`, nothing written): slug duplicated in the blueprint or the account
 * (`duplicate`), no language or a language twice (`too_few`, `duplicate`), an edition ending at or
 * before its start (`invalid_value` on `events[i].editions[j].ends_at`).
 */
export class ProvisionEventsCommand extends Command<ProvisionedEvents> {
  constructor(
    readonly accountId: AccountId,
    readonly events: readonly EventSpec[],
  ) {
    super();
  }
}
