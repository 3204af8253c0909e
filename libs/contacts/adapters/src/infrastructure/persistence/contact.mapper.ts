import { asAccountId } from '@leadflow/shared-kernel';
import type { ContactState, CustomFieldDefinition, TagState } from '@leadflow/contacts-core';
import type { ContactRecord, CustomFieldDefinitionRecord, TagRecord } from './contacts.records';

/** Domain state ↔ TypeORM rows of the contacts schema (persistence only; views are built in core). */
export const ContactMapper = {
  toState(record: ContactRecord): ContactState {
    return {
      id: record.id,
      accountId: asAccountId(record.accountId),
      firstName: record.firstName,
      lastName: record.lastName,
      email: record.email,
      phone: record.phone,
      company: record.company,
      dealValueCents: record.dealValueCents === null ? null : Number(record.dealValueCents),
      customFields: record.customFields ?? {},
      isPriority: record.isPriority,
      notes: record.notes,
      source: record.source,
      systemId: record.systemId,
      pipelineId: record.pipelineId,
      stageId: record.stageId,
      salesRepId: record.salesRepId,
      attribution: record.attribution ?? {},
      addressParts: {
        address: record.address,
        postalCode: record.postalCode,
        addressPlaceId: record.addressPlaceId,
        street: record.street,
        city: record.city,
        sector: record.sector,
        province: record.province,
        country: record.country,
      },
      sourceLabel: record.sourceLabel,
      expectedCloseDate: record.expectedCloseDate,
      archivedAt: record.archivedAt,
      mergedIntoId: record.mergedIntoId,
      mergedAt: record.mergedAt,
      disqualifiedAt: record.disqualifiedAt,
      score: record.score ?? 0,
      scoreReviewAt: record.scoreReviewAt,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  },

  toRecord(state: ContactState): ContactRecord {
    const { addressParts, dealValueCents, ...rest } = state;
    return { ...rest, ...addressParts, dealValueCents: dealValueCents === null ? null : String(dealValueCents) } as ContactRecord;
  },

  toTag(record: TagRecord): TagState {
    return {
      id: record.id,
      name: record.name,
      color: record.color,
      description: record.description,
      category: record.category,
      systemKey: record.systemKey,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  },

  toDefinition(record: CustomFieldDefinitionRecord): CustomFieldDefinition {
    return { id: record.id, name: record.name, type: record.type, options: record.options };
  },
};

/** `contacts.contacts` columns of {@link ContactRecord}, with their property names (raw SQL reads and writes). */
const CONTACT_COLUMNS: ReadonlyArray<readonly [column: string, property: keyof ContactRecord]> = [
  ['id', 'id'],
  ['account_id', 'accountId'],
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['email', 'email'],
  ['phone', 'phone'],
  ['company', 'company'],
  ['deal_value_cents', 'dealValueCents'],
  ['custom_fields', 'customFields'],
  ['is_priority', 'isPriority'],
  ['notes', 'notes'],
  ['source', 'source'],
  ['system_id', 'systemId'],
  ['pipeline_id', 'pipelineId'],
  ['stage_id', 'stageId'],
  ['sales_rep_id', 'salesRepId'],
  ['attribution', 'attribution'],
  ['address', 'address'],
  ['postal_code', 'postalCode'],
  ['address_place_id', 'addressPlaceId'],
  ['street', 'street'],
  ['city', 'city'],
  ['sector', 'sector'],
  ['province', 'province'],
  ['country', 'country'],
  ['source_label', 'sourceLabel'],
  ['expected_close_date', 'expectedCloseDate'],
  ['archived_at', 'archivedAt'],
  ['merged_into_id', 'mergedIntoId'],
  ['merged_at', 'mergedAt'],
  ['disqualified_at', 'disqualifiedAt'],
  ['score', 'score'],
  ['score_review_at', 'scoreReviewAt'],
  ['created_at', 'createdAt'],
  ['updated_at', 'updatedAt'],
];

const JSONB_COLUMNS = new Set(['custom_fields', 'attribution']);

/** The column list of a contact insert. */
const INSERT_COLUMNS = CONTACT_COLUMNS.map(([column]) => column).join(', ');

/** Parameter placeholders appended to a shared parameter list (`$n` numbering across a whole statement). */
export class SqlParameters {
  readonly values: unknown[] = [];

  /** `$n` for `value`, with `cast` (e.g. `::jsonb`) appended. */
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/**
 * Raw SQL of the contacts rows, for the hot paths (lead capture) where TypeORM's query builder costs
 * more than the statement: one statement writes a contact with its identities.
 */
export const ContactSql = {
  /** Select list of a contact aliased `alias` (`expected_close_date` as text, like TypeORM reads a `date`). */
  selectColumns(alias: string): string {
    return CONTACT_COLUMNS.map(([column]) => (column === 'expected_close_date' ? `${alias}.${column}::text AS ${column}` : `${alias}.${column}`)).join(', ');
  },

  /** A row read with {@link selectColumns} → state. */
  toState(row: Record<string, unknown>): ContactState {
    const record = {} as Record<string, unknown>;
    for (const [column, property] of CONTACT_COLUMNS) record[property] = row[column] ?? null;
    return ContactMapper.toState(record as unknown as ContactRecord);
  },

  /**
   * CTEs (no leading `WITH`) inserting the contact (`<prefix>_contact`) and its primary identities
   * (`<prefix>_identities`); a unique violation of `contact_identities_unique` means another contact holds one.
   * The contact is ONE JSON parameter typed by the table (`jsonb_populate_record`), the identities another
   * (issue 11: two strings to serialise instead of thirty-seven values). With `guard` (a boolean SQL
   * expression of the statement), nothing is inserted unless it holds.
   */
  insertCtes(contact: ContactState, params: SqlParameters, prefix = 'new', guard?: string): string {
    const record = ContactMapper.toRecord(contact) as unknown as Record<string, unknown>;
    const row: Record<string, unknown> = {};
    for (const [column, property] of CONTACT_COLUMNS) row[column] = record[property] ?? (JSONB_COLUMNS.has(column) ? {} : null);
    const identities = [
      ...(contact.email ? [{ kind: 'email', value: contact.email }] : []),
      ...(contact.phone ? [{ kind: 'phone', value: contact.phone }] : []),
    ];
    const where = guard ? ` WHERE ${guard}` : '';
    return `${prefix}_contact AS (
        INSERT INTO contacts.contacts (${INSERT_COLUMNS})
        SELECT ${INSERT_COLUMNS} FROM jsonb_populate_record(NULL::contacts.contacts, ${params.add(JSON.stringify(row), '::jsonb')})${where}),
      ${prefix}_identities AS (
        INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at)
        SELECT ${params.add(contact.accountId, '::uuid')}, ${params.add(contact.id, '::uuid')}, i.kind, i.value, true, ${params.add(contact.createdAt, '::timestamptz')}
          FROM jsonb_to_recordset(${params.add(JSON.stringify(identities), '::jsonb')}) AS i(kind text, value text)${where})`;
  },
};

/** A `contacts.tags` row as raw SQL reads it with {@link TAG_COLUMNS}. */
export interface TagRow {
  id: string;
  name: string;
  color: string;
  description: string | null;
  category: string | null;
  system_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Select list of a tag row. */
export const TAG_COLUMNS = 'id, name, color, description, category, system_key, created_at, updated_at';

/** A {@link TagRow} → tag state. */
export function tagRowToState(row: TagRow): TagState {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    description: row.description,
    category: row.category,
    systemKey: row.system_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The PostgreSQL unique-violation (23505) behind a TypeORM error, or null. */
export function uniqueViolation(error: unknown): { constraint?: string; detail?: string } | null {
  const driver = ((error as { driverError?: unknown })?.driverError ?? error) as { code?: string; constraint?: string; detail?: string } | null;
  return driver && driver.code === '23505' ? driver : null;
}
