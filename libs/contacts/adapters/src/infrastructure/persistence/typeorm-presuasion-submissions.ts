import { Injectable } from '@nestjs/common';
import { AccountId, asAccountId, isUuid, Page } from '@leadflow/shared-kernel';
import { toPage, TransactionHost } from '@leadflow/shared-platform';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import {
  PresuasionSubmissionFilter,
  PresuasionSubmissionRepository,
  PresuasionSubmissionsReadModel,
  PresuasionSubmissionState,
  toPresuasionSubmissionView,
} from '@leadflow/contacts-core';

/** A `contacts.presuasion_submissions` row as read. */
interface SubmissionRow {
  account_id: string;
  id: string;
  tool_slug: string;
  tool_name: string;
  form_id: string | null;
  contact_id: string;
  contact_was_new: boolean;
  tag_id: string;
  activity_id: string;
  answers: PresuasionSubmissionState['answers'];
  score: number | null;
  outcome: string | null;
  person: PresuasionSubmissionState['person'];
  consent: PresuasionSubmissionState['consent'];
  attribution: PresuasionSubmissionState['attribution'];
  submitted_at: Date;
  created_at: Date;
}

const COLUMNS =
  'account_id, id, tool_slug, tool_name, form_id, contact_id, contact_was_new, tag_id, activity_id, answers, score, outcome, person, consent, attribution, submitted_at, created_at';

function toState(row: SubmissionRow): PresuasionSubmissionState {
  return {
    id: row.id,
    accountId: asAccountId(row.account_id),
    toolSlug: row.tool_slug,
    toolName: row.tool_name,
    formId: row.form_id,
    contactId: row.contact_id,
    contactWasNew: row.contact_was_new,
    tagId: row.tag_id,
    activityId: row.activity_id,
    answers: row.answers,
    score: row.score === null ? null : Number(row.score),
    outcome: row.outcome,
    person: row.person,
    consent: row.consent,
    attribution: row.attribution,
    submittedAt: new Date(row.submitted_at),
    createdAt: new Date(row.created_at),
  };
}

/**
 * `contacts.presuasion_submissions` in parameterised SQL, through the current unit of work: the insert
 * of `POST /v1/presuasion/submissions` and the reads of `GET /v1/presuasion/submissions[/{id}]`. Every
 * statement filters on `account_id` (the leading column of the primary key and of every index).
 */
@Injectable()
export class TypeOrmPresuasionSubmissions implements PresuasionSubmissionRepository, PresuasionSubmissionsReadModel {
  constructor(private readonly transactions: TransactionHost) {}

  async insert(submission: PresuasionSubmissionState): Promise<void> {
    await this.transactions.manager.query(
      `INSERT INTO contacts.presuasion_submissions (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13::jsonb, $14::jsonb, $15::jsonb, $16, $17)`,
      [
        submission.accountId,
        submission.id,
        submission.toolSlug,
        submission.toolName,
        submission.formId,
        submission.contactId,
        submission.contactWasNew,
        submission.tagId,
        submission.activityId,
        JSON.stringify(submission.answers),
        submission.score,
        submission.outcome,
        JSON.stringify(submission.person),
        JSON.stringify(submission.consent),
        JSON.stringify(submission.attribution),
        submission.submittedAt,
        submission.createdAt,
      ],
    );
  }

  async get(accountId: AccountId, id: string): Promise<PresuasionSubmissionView | null> {
    if (!isUuid(id)) return null;
    const rows: SubmissionRow[] = await this.transactions.manager.query(
      `SELECT ${COLUMNS} FROM contacts.presuasion_submissions WHERE account_id = $1 AND id = $2`,
      [accountId, id.toLowerCase()],
    );
    return rows[0] ? toPresuasionSubmissionView(toState(rows[0])) : null;
  }

  /** One statement: the page (`limit + 1` rows after the keyset position) and the exact count of the filter. */
  async list(accountId: AccountId, filter: PresuasionSubmissionFilter): Promise<Page<PresuasionSubmissionView>> {
    const params: unknown[] = [accountId];
    const where = ['account_id = $1'];
    const add = (condition: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (filter.toolSlug !== null) add((n) => `tool_slug = ${n}`, filter.toolSlug);
    if (filter.contactIds !== null) add((n) => `contact_id = ANY(${n}::uuid[])`, filter.contactIds);
    if (filter.from !== null) add((n) => `submitted_at >= ${n}`, filter.from);
    if (filter.to !== null) add((n) => `submitted_at <= ${n}`, filter.to);
    const matching = where.join(' AND ');
    const paged = [...where];
    const after = filter.page.after;
    if (after?.id) {
      params.push(after.createdAt, after.id);
      paged.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
    } else if (after) {
      params.push(after.createdAt);
      paged.push(`created_at < $${params.length}`);
    }
    params.push(filter.page.limit + 1);
    const rows: (SubmissionRow & { __total: number })[] = await this.transactions.manager.query(
      `SELECT ${COLUMNS}, (SELECT count(*) FROM contacts.presuasion_submissions WHERE ${matching})::int AS "__total"
         FROM contacts.presuasion_submissions WHERE ${paged.join(' AND ')}
        ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    const total = rows[0]?.__total ?? (await this.count(matching, params.slice(0, where.length)));
    return toPage(rows.map(toState), filter.page, total, toPresuasionSubmissionView);
  }

  /** The filter's count when the page is empty (a cursor past the last row). */
  private async count(matching: string, params: unknown[]): Promise<number> {
    const [row]: { n: number }[] = await this.transactions.manager.query(`SELECT count(*)::int AS n FROM contacts.presuasion_submissions WHERE ${matching}`, params);
    return row.n;
  }
}
