import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { journalCtes, TransactionHost } from '@leadflow/shared-platform';
import { Identity, LeadCaptureLog, LeadCaptureRecord, LeadCaptureWrites, NewPersonCapture } from '@leadflow/contacts-core';
import { ContactSql, SqlParameters } from './contact.mapper';
import { identityChainCte, IdentityOwnerRow, SELECT_IDENTITY_OWNERS, toIdentityOwner } from './typeorm-contact-identity.repository';
import { identityViolation } from './typeorm-contacts.repository';

interface CaptureRow {
  id: string;
  contact_id: string;
  activity_id: string;
  contact_was_new: boolean;
  captured_at: Date;
}

/**
 * {@link LeadCaptureLog} on `contacts.lead_captures` (index `(account_id, contact_id, captured_at DESC)`)
 * in parameterised SQL: a recorded capture is one statement (capture row, new contact and identities,
 * tags attached, activity entry and outbox events); a new person's capture checks its identities in that
 * same statement ({@link recordIfNewPerson}).
 */
@Injectable()
export class TypeOrmLeadCaptureLog extends LeadCaptureLog {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async lastCapture(accountId: AccountId, contactId: string): Promise<LeadCaptureRecord | null> {
    const rows: CaptureRow[] = await this.transactions.manager.query(
      `SELECT id, contact_id, activity_id, contact_was_new, captured_at FROM contacts.lead_captures
        WHERE account_id = $1 AND contact_id = $2 ORDER BY captured_at DESC LIMIT 1`,
      [accountId, contactId],
    );
    return rows[0] ? toCapture(rows[0]) : null;
  }

  async record(accountId: AccountId, capture: LeadCaptureRecord, writes: LeadCaptureWrites = {}): Promise<void> {
    const params = new SqlParameters();
    const ctes = this.writeCtes(accountId, capture, writes, params);
    try {
      await this.transactions.manager.query(
        `${ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n` : ''}INSERT INTO contacts.lead_captures (id, account_id, contact_id, activity_id, contact_was_new, captured_at) VALUES (${captureValues(accountId, capture, params)})`,
        params.values,
      );
    } catch (error) {
      throw identityViolation(error);
    }
  }

  async recordIfNewPerson(
    accountId: AccountId,
    lookups: readonly Identity[],
    capture: LeadCaptureRecord,
    writes: LeadCaptureWrites,
  ): Promise<NewPersonCapture> {
    if (lookups.length === 0) {
      await this.record(accountId, capture, writes);
      return { recorded: true };
    }
    const params = new SqlParameters();
    const chain = identityChainCte(params.add(accountId, '::uuid'), lookups, params);
    const ctes = [
      chain,
      // depth 0 of the chain: a stored identity equal to one of the lookups, whichever contact holds it
      'new_person AS MATERIALIZED (SELECT NOT EXISTS (SELECT 1 FROM chain WHERE depth = 0) AS ok)',
      ...this.writeCtes(accountId, capture, writes, params, NEW_PERSON),
      `capture AS (
        INSERT INTO contacts.lead_captures (id, account_id, contact_id, activity_id, contact_was_new, captured_at)
        SELECT ${captureValues(accountId, capture, params)} WHERE ${NEW_PERSON} RETURNING id)`,
    ];
    let rows: { recorded: number; owners: IdentityOwnerRow[] }[];
    try {
      rows = await this.transactions.manager.query(
        `WITH RECURSIVE ${ctes.join(',\n')}
         SELECT (SELECT count(*) FROM capture)::int AS recorded,
                COALESCE((SELECT json_agg(owner) FROM (${SELECT_IDENTITY_OWNERS}) owner), '[]'::json) AS owners`,
        params.values,
      );
    } catch (error) {
      throw identityViolation(error);
    }
    const [row] = rows;
    return row.recorded > 0 ? { recorded: true } : { recorded: false, owners: row.owners.map(toIdentityOwner) };
  }

  /** The CTEs of `writes` (new contact, tags attached, journal), each written only when `guard` holds if given. */
  private writeCtes(accountId: AccountId, capture: LeadCaptureRecord, writes: LeadCaptureWrites, params: SqlParameters, guard?: string): string[] {
    const ctes: string[] = [];
    if (writes.newContact) ctes.push(ContactSql.insertCtes(writes.newContact, params, 'new', guard));
    if (writes.tagIds && writes.tagIds.length > 0) {
      ctes.push(`new_tags AS (
        INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at)
        SELECT ${params.add(accountId, '::uuid')}, ${params.add(capture.contactId, '::uuid')}, t.tag_id, ${params.add(capture.capturedAt, '::timestamptz')}
          FROM unnest(${params.add([...new Set(writes.tagIds)], '::uuid[]')}) AS t(tag_id)${guard ? ` WHERE ${guard}` : ''}
        ON CONFLICT DO NOTHING)`);
    }
    if (writes.journal) {
      const journal = journalCtes(params.values.length + 1, accountId, writes.journal.entries, writes.journal.events, capture.capturedAt, guard);
      ctes.push(...journal.ctes);
      params.values.push(...journal.params);
    }
    return ctes;
  }
}

/** The guard of a new person's capture: none of its identities was stored when the statement began. */
const NEW_PERSON = '(SELECT ok FROM new_person)';

/** The six typed values of a `contacts.lead_captures` row. */
function captureValues(accountId: AccountId, capture: LeadCaptureRecord, params: SqlParameters): string {
  return [
    params.add(capture.id, '::uuid'),
    params.add(accountId, '::uuid'),
    params.add(capture.contactId, '::uuid'),
    params.add(capture.activityId, '::uuid'),
    params.add(capture.contactWasNew, '::boolean'),
    params.add(capture.capturedAt, '::timestamptz'),
  ].join(', ');
}

function toCapture(row: CaptureRow): LeadCaptureRecord {
  return { id: row.id, contactId: row.contact_id, activityId: row.activity_id, contactWasNew: row.contact_was_new, capturedAt: new Date(row.captured_at) };
}
