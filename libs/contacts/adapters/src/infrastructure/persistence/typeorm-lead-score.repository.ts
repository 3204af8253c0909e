import { Injectable } from '@nestjs/common';
import { AccountId, asAccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { BOOKING_EVENTS } from '@leadflow/bookings-contracts';
import { CONTACT_EVENTS, PRESUASION_SUBMISSION_CREATED_EVENT } from '@leadflow/contacts-contracts';
import { CUSTOM_EVENT_ACTIVITY_TYPE } from '@leadflow/events-contracts';
import { QUOTE_EVENTS } from '@leadflow/quotes-contracts';
import { ContactState, LeadScoreDue, LeadScoreRepository, LeadSignals } from '@leadflow/contacts-core';
import { ContactSql } from './contact.mapper';

/**
 * Activity type of an email reply from the contact. Leadflow has no inbound mailbox yet, so nothing
 * writes it today: the rule is ready for the messaging context's first reply entry (README ›
 * Decisions › Lead score).
 */
export const EMAIL_REPLIED_ACTIVITY = 'email_replied';

/** Activity entries that count as the contact's own touch (recency): captures, submissions and engagement. */
const TOUCH_TYPES = [
  CONTACT_EVENTS.leadCreated,
  PRESUASION_SUBMISSION_CREATED_EVENT,
  BOOKING_EVENTS.created,
  QUOTE_EVENTS.viewed,
  QUOTE_EVENTS.signed,
  CUSTOM_EVENT_ACTIVITY_TYPE,
  EMAIL_REPLIED_ACTIVITY,
];

/** Every activity type the signals read. */
const SIGNAL_TYPES = [...TOUCH_TYPES, BOOKING_EVENTS.cancelled, BOOKING_EVENTS.outcomeRecorded];

/*
 * CROSS-CONTEXT READ: the engagement signals are read from `platform.activity_log`, the timeline every
 * context writes through the platform's journal (like the webhooks' sample feed does), on its index
 * `(account_id, contact_id, created_at DESC)`: one contact's entries of the types above. The entries'
 * `data` members read are those their writers document: `booking_id` and `status` (bookings), `quote_id`
 * (quotes). Nothing is written there.
 */
const SIGNALS_SQL = `
  WITH entries AS (
    SELECT l.id, l.type, l.data, l.created_at
      FROM platform.activity_log l
     WHERE l.account_id = $1 AND l.contact_id = $2 AND l.type = ANY($3::text[])
  ),
  bookings AS (
    SELECT e.data->>'booking_id' AS booking_id,
           bool_or(e.type = $5) AS created,
           bool_or(e.type = $6) AS cancelled,
           (array_agg(e.data->>'status' ORDER BY e.created_at DESC, e.id DESC) FILTER (WHERE e.type = $7))[1] AS outcome
      FROM entries e
     WHERE e.type IN ($5, $6, $7) AND e.data ? 'booking_id'
     GROUP BY 1
  )
  SELECT
    (SELECT count(*) FROM contacts.lead_captures lc WHERE lc.account_id = $1 AND lc.contact_id = $2)::int AS captures,
    (SELECT count(*) FROM contacts.presuasion_submissions ps WHERE ps.account_id = $1 AND ps.contact_id = $2)::int AS form_submissions,
    (SELECT ps.consent FROM contacts.presuasion_submissions ps WHERE ps.account_id = $1 AND ps.contact_id = $2
      ORDER BY ps.created_at DESC, ps.id DESC LIMIT 1) AS latest_form_consent,
    EXISTS (SELECT 1 FROM contacts.email_unsubscribes u WHERE u.account_id = $1 AND u.email = $4) AS email_unsubscribed,
    (SELECT count(*) FROM bookings b WHERE b.created AND NOT b.cancelled)::int AS bookings,
    (SELECT count(*) FROM bookings b WHERE b.outcome = 'completed')::int AS bookings_attended,
    (SELECT count(*) FROM bookings b WHERE b.outcome = 'no_show')::int AS bookings_missed,
    (SELECT count(DISTINCT e.data->>'quote_id') FROM entries e WHERE e.type = $8)::int AS quotes_viewed,
    (SELECT count(DISTINCT e.data->>'quote_id') FROM entries e WHERE e.type = $9)::int AS quotes_signed,
    (SELECT count(*) FROM entries e WHERE e.type = $10)::int AS custom_events,
    (SELECT count(*) FROM entries e WHERE e.type = $11)::int AS email_replies,
    (SELECT max(e.created_at) FROM entries e WHERE e.type = ANY($12::text[])) AS last_touch_at`;

interface SignalsRow {
  captures: number;
  form_submissions: number;
  latest_form_consent: { sms?: unknown; email?: unknown } | null;
  email_unsubscribed: boolean;
  bookings: number;
  bookings_attended: number;
  bookings_missed: number;
  quotes_viewed: number;
  quotes_signed: number;
  custom_events: number;
  email_replies: number;
  last_touch_at: Date | null;
}

function consentValue(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/**
 * SQL implementation of {@link LeadScoreRepository}: the contact row (locked `FOR UPDATE` inside the
 * unit of work), its signals in one statement, and the score columns of `contacts.contacts`.
 */
@Injectable()
export class TypeOrmLeadScoreRepository extends LeadScoreRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async findForScoring(accountId: AccountId, contactId: string): Promise<{ contact: ContactState; signals: LeadSignals } | null> {
    if (!isUuid(contactId)) return null;
    const manager = this.transactions.manager;
    const lock = this.transactions.inTransaction ? 'FOR UPDATE' : '';
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT ${ContactSql.selectColumns('c')} FROM contacts.contacts c WHERE c.account_id = $1 AND c.id = $2 ${lock}`,
      [accountId, contactId],
    );
    if (!rows[0]) return null;
    const contact = ContactSql.toState(rows[0]);
    const [row]: SignalsRow[] = await manager.query(SIGNALS_SQL, [
      accountId,
      contact.id,
      SIGNAL_TYPES,
      contact.email,
      BOOKING_EVENTS.created,
      BOOKING_EVENTS.cancelled,
      BOOKING_EVENTS.outcomeRecorded,
      QUOTE_EVENTS.viewed,
      QUOTE_EVENTS.signed,
      CUSTOM_EVENT_ACTIVITY_TYPE,
      EMAIL_REPLIED_ACTIVITY,
      TOUCH_TYPES,
    ]);
    const consent = row.latest_form_consent;
    return {
      contact,
      signals: {
        captures: row.captures,
        formSubmissions: row.form_submissions,
        latestFormConsent: consent ? { sms: consentValue(consent.sms), email: consentValue(consent.email) } : null,
        emailUnsubscribed: row.email_unsubscribed === true,
        bookings: row.bookings,
        bookingsAttended: row.bookings_attended,
        bookingsMissed: row.bookings_missed,
        quotesViewed: row.quotes_viewed,
        quotesSigned: row.quotes_signed,
        customEvents: row.custom_events,
        emailReplies: row.email_replies,
        lastTouchAt: row.last_touch_at ? new Date(row.last_touch_at) : null,
      },
    };
  }

  async saveScore(accountId: AccountId, contactId: string, score: number, reviewAt: Date | null): Promise<void> {
    await this.transactions.manager.query(`UPDATE contacts.contacts SET score = $3, score_review_at = $4 WHERE account_id = $1 AND id = $2`, [
      accountId,
      contactId,
      score,
      reviewAt,
    ]);
  }

  /** The one query across accounts (a system pass): `contacts_score_review_idx`, oldest review first. */
  async dueForReview(now: Date, limit: number): Promise<LeadScoreDue[]> {
    const rows: { account_id: string; id: string }[] = await this.transactions.manager.query(
      `SELECT account_id, id FROM contacts.contacts WHERE score_review_at <= $1 ORDER BY score_review_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => ({ accountId: asAccountId(row.account_id), contactId: row.id }));
  }
}
