import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import type { EditionStatus, EventStatus, RegistrationStatus } from '@leadflow/events-contracts';
import { CustomEventState, EventsRepository, EventState, RegistrationState } from '@leadflow/events-core';

interface EventRow {
  id: string;
  account_id: string;
  slug: string;
  name: string;
  status: EventStatus;
  languages: string[];
  created_at: Date;
  editions: { id: string; name: string; starts_at: string; ends_at: string; status: EditionStatus; position: number }[];
}

interface RegistrationRow {
  id: string;
  account_id: string;
  contact_id: string;
  event_id: string;
  edition_id: string;
  language: string;
  status: RegistrationStatus;
  opted_out_at: Date | null;
  confirmation_email_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const REGISTRATION_COLUMNS = `id, account_id, contact_id, event_id, edition_id, language, status, opted_out_at, confirmation_email_id, created_at, updated_at`;

function toRegistration(row: RegistrationRow): RegistrationState {
  return {
    id: row.id,
    accountId: row.account_id,
    contactId: row.contact_id,
    eventId: row.event_id,
    editionId: row.edition_id,
    language: row.language,
    status: row.status,
    optedOutAt: row.opted_out_at,
    confirmationEmailId: row.confirmation_email_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** {@link EventsRepository} on the `events` schema (SQL through the current unit of work; every query filters on `account_id`). */
@Injectable()
export class TypeOrmEventsRepository extends EventsRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.transactions.manager.query(sql, parameters);
  }

  async slugsTaken(accountId: AccountId, slugs: readonly string[]): Promise<string[]> {
    if (slugs.length === 0) return [];
    const rows = await this.query<{ slug: string }>(`SELECT slug FROM events.events WHERE account_id = $1 AND slug = ANY($2::text[])`, [accountId, [...slugs]]);
    return rows.map((row) => row.slug);
  }

  async insertEvents(accountId: AccountId, events: readonly EventState[]): Promise<void> {
    for (const event of events) {
      await this.query(
        `INSERT INTO events.events (id, account_id, slug, name, status, languages, created_at) VALUES ($1, $2, $3, $4, $5, $6::text[], $7)`,
        [event.id, accountId, event.slug, event.name, event.status, event.languages, event.createdAt],
      );
      if (event.editions.length === 0) continue;
      await this.query(
        `INSERT INTO events.editions (id, account_id, event_id, name, starts_at, ends_at, status, position)
         SELECT id, $1, $2, name, starts_at, ends_at, status, position
           FROM unnest($3::uuid[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::int[])
             AS e(id, name, starts_at, ends_at, status, position)`,
        [
          accountId,
          event.id,
          event.editions.map((edition) => edition.id),
          event.editions.map((edition) => edition.name),
          event.editions.map((edition) => edition.startsAt.toISOString()),
          event.editions.map((edition) => edition.endsAt.toISOString()),
          event.editions.map((edition) => edition.status),
          event.editions.map((edition) => edition.position),
        ],
      );
    }
  }

  async findEvent(accountId: AccountId, ref: { id: string } | { slug: string }): Promise<EventState | null> {
    if ('id' in ref && !isUuid(ref.id)) return null;
    const [column, value] = 'id' in ref ? ['id', ref.id] : ['slug', ref.slug];
    const rows = await this.query<EventRow>(
      `SELECT e.id, e.account_id, e.slug, e.name, e.status, e.languages, e.created_at,
              COALESCE((SELECT json_agg(json_build_object('id', d.id, 'name', d.name, 'starts_at', d.starts_at, 'ends_at', d.ends_at,
                                                          'status', d.status, 'position', d.position) ORDER BY d.position)
                          FROM events.editions d WHERE d.account_id = e.account_id AND d.event_id = e.id), '[]'::json) AS editions
         FROM events.events e
        WHERE e.account_id = $1 AND e.${column} = $2`,
      [accountId, value],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      accountId: row.account_id,
      slug: row.slug,
      name: row.name,
      status: row.status,
      languages: row.languages,
      createdAt: row.created_at,
      editions: row.editions.map((edition) => ({
        id: edition.id,
        eventId: row.id,
        name: edition.name,
        startsAt: new Date(edition.starts_at),
        endsAt: new Date(edition.ends_at),
        status: edition.status,
        position: edition.position,
      })),
    };
  }

  async insertRegistrationIfAbsent(registration: RegistrationState): Promise<boolean> {
    const rows = await this.query<{ id: string }>(
      `INSERT INTO events.registrations (${REGISTRATION_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (account_id, edition_id, contact_id) DO NOTHING
       RETURNING id`,
      [
        registration.id,
        registration.accountId,
        registration.contactId,
        registration.eventId,
        registration.editionId,
        registration.language,
        registration.status,
        registration.optedOutAt,
        registration.confirmationEmailId,
        registration.createdAt,
        registration.updatedAt,
      ],
    );
    return rows.length > 0;
  }

  async findRegistration(accountId: AccountId, editionId: string, contactId: string, options: { lock?: boolean } = {}): Promise<RegistrationState | null> {
    const rows = await this.query<RegistrationRow>(
      `SELECT ${REGISTRATION_COLUMNS} FROM events.registrations WHERE account_id = $1 AND edition_id = $2 AND contact_id = $3${options.lock ? ' FOR UPDATE' : ''}`,
      [accountId, editionId, contactId],
    );
    return rows[0] ? toRegistration(rows[0]) : null;
  }

  async findRegistrationById(accountId: AccountId, registrationId: string, options: { lock?: boolean } = {}): Promise<RegistrationState | null> {
    if (!isUuid(registrationId)) return null;
    const rows = await this.query<RegistrationRow>(
      `SELECT ${REGISTRATION_COLUMNS} FROM events.registrations WHERE account_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [accountId, registrationId],
    );
    return rows[0] ? toRegistration(rows[0]) : null;
  }

  async updateRegistration(registration: RegistrationState): Promise<void> {
    await this.query(
      `UPDATE events.registrations SET language = $3, status = $4, opted_out_at = $5, confirmation_email_id = $6, updated_at = $7
        WHERE account_id = $1 AND id = $2`,
      [registration.accountId, registration.id, registration.language, registration.status, registration.optedOutAt, registration.confirmationEmailId, registration.updatedAt],
    );
  }

  async insertCustomEvent(event: CustomEventState): Promise<void> {
    await this.query(
      `INSERT INTO events.custom_events (id, account_id, contact_id, name, payload, payload_truncated, source_label, contact_archived, contact_created,
                                         enrolled_executions, api_key_id, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12)`,
      [
        event.id,
        event.accountId,
        event.contactId,
        event.name,
        JSON.stringify(event.payload),
        event.payloadTruncated,
        event.sourceLabel,
        event.contactArchived,
        event.contactCreated,
        event.enrolledExecutions,
        event.apiKeyId,
        event.createdAt,
      ],
    );
  }
}
