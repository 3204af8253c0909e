import Fastify, { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Client, DatabaseError, Pool, PoolClient } from 'pg';

/**
 * The bench's bare baseline: Fastify + `pg`, no Nest, no TypeORM, no authentication, no logging, one Redis
 * quota call per request (an `INCR` of an hourly counter, as the issue 11 measurement describes), doing the SQL a lead capture and a contact read cannot do without, against tables shaped like
 * `contacts.contacts` and `contacts.contact_identities` (same columns, same unique identity key, same
 * list index). What the api does on top (API key and quota checks in Redis, validation, activity log,
 * outbox, idempotency, usage counters, request logs) is what the ratio to this baseline measures.
 */

/** Every baseline row belongs to this account, and every query filters on it, as in the api. */
const ACCOUNT_ID = '00000000-0000-4000-8000-00000000be4c';
const SYSTEM_ID = '00000000-0000-4000-8000-0000000057e0';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNIQUE_VIOLATION = '23505';
const DUPLICATE_DATABASE = '42P04';

const CONTACT_COLUMNS = `id, account_id, first_name, last_name, email, phone, company, deal_value_cents, custom_fields, is_priority,
  notes, source, system_id, pipeline_id, stage_id, sales_rep_id, attribution, address, postal_code, address_place_id, street,
  city, sector, province, country, archived_at, merged_into_id, merged_at, disqualified_at, created_at, updated_at`;

/** Creates the scratch database when missing and (re)creates its `bench` schema: every run starts empty. */
export async function prepareBaselineDatabase(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const admin = new Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: unknown) => {
        if (!(error instanceof DatabaseError && error.code === DUPLICATE_DATABASE)) throw error;
      });
    }
  } finally {
    await admin.end();
  }

  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('DROP SCHEMA IF EXISTS bench CASCADE');
    await client.query('CREATE SCHEMA bench');
    await client.query(`
      CREATE TABLE bench.contacts (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        first_name text NULL,
        last_name text NULL,
        email text NULL,
        phone text NULL,
        company text NULL,
        deal_value_cents bigint NULL CHECK (deal_value_cents > 0),
        custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
        is_priority boolean NOT NULL DEFAULT false,
        notes text NULL,
        source text NOT NULL,
        system_id uuid NOT NULL,
        pipeline_id uuid NULL,
        stage_id uuid NULL,
        sales_rep_id uuid NULL,
        attribution jsonb NOT NULL DEFAULT '{}'::jsonb,
        address text NULL,
        postal_code text NULL,
        address_place_id text NULL,
        street text NULL,
        city text NULL,
        sector text NULL,
        province text NULL,
        country text NULL,
        archived_at timestamptz NULL,
        merged_into_id uuid NULL,
        merged_at timestamptz NULL,
        disqualified_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await client.query(
      'CREATE INDEX contacts_list_idx ON bench.contacts (account_id, created_at DESC, id DESC) WHERE merged_into_id IS NULL',
    );
    await client.query(`
      CREATE TABLE bench.contact_identities (
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('email', 'phone')),
        value text NOT NULL,
        is_primary boolean NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT contact_identities_unique PRIMARY KEY (account_id, kind, value)
      )`);
    await client.query('CREATE INDEX contact_identities_contact_idx ON bench.contact_identities (account_id, contact_id)');
  } finally {
    await client.end();
  }
}

interface CaptureBody {
  email?: unknown;
  phone?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}

interface CaptureOutcome {
  status: 'created' | 'idempotent_replay';
  contact_id: string;
  contact_was_new: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim().length > 0 ? value.trim() : null);

/**
 * Insert-or-find in one transaction, as a lead capture resolves its contact: look the email and the phone
 * up among the identities (email wins), lock and read the contact found, or insert the contact and its
 * identities. A concurrent insert of the same identity (unique violation) rolls back and finds it instead.
 */
async function insertOrFind(pool: Pool, body: CaptureBody): Promise<CaptureOutcome> {
  const email = text(body.email)?.toLowerCase() ?? null;
  const phone = text(body.phone);
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const outcome = await resolveOrInsert(client, email, phone, body);
      await client.query('COMMIT');
      return outcome;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (attempt < 3 && error instanceof DatabaseError && error.code === UNIQUE_VIOLATION) continue;
      throw error;
    } finally {
      client.release();
    }
  }
}

async function resolveOrInsert(client: PoolClient, email: string | null, phone: string | null, body: CaptureBody): Promise<CaptureOutcome> {
  const found = await client.query<{ kind: string; contact_id: string }>(
    `SELECT kind, contact_id FROM bench.contact_identities
      WHERE account_id = $1 AND (kind, value) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [ACCOUNT_ID, ['email', 'phone'], [email, phone]],
  );
  const match = found.rows.find((row) => row.kind === 'email') ?? found.rows[0];
  if (match) {
    await client.query(`SELECT ${CONTACT_COLUMNS} FROM bench.contacts WHERE account_id = $1 AND id = $2 FOR UPDATE`, [ACCOUNT_ID, match.contact_id]);
    return { status: 'idempotent_replay', contact_id: match.contact_id, contact_was_new: false };
  }
  const id = randomUUID();
  const now = new Date();
  await client.query(
    `INSERT INTO bench.contacts (id, account_id, first_name, last_name, email, phone, source, system_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'api', $7, $8, $8)`,
    [id, ACCOUNT_ID, text(body.first_name), text(body.last_name), email, phone, SYSTEM_ID, now],
  );
  const kinds = [email === null ? null : 'email', phone === null ? null : 'phone'].filter((kind): kind is string => kind !== null);
  const values = [email, phone].filter((value): value is string => value !== null);
  await client.query(
    `INSERT INTO bench.contact_identities (account_id, contact_id, kind, value, is_primary, created_at)
     SELECT $1, $2, kind, value, true, $3 FROM unnest($4::text[], $5::text[]) AS i(kind, value)`,
    [ACCOUNT_ID, id, now, kinds, values],
  );
  return { status: 'created', contact_id: id, contact_was_new: true };
}

/** What the baseline's `GET /me` answers: a key description known in memory (no SQL). */
const ME = {
  data: {
    id: '00000000-0000-4000-8000-0000000000ee',
    name: 'bench',
    prefix: 'lf_live_baseline',
    account_id: ACCOUNT_ID,
    scopes: ['contacts:read', 'contacts:write', 'leads:capture'],
    rate_limits: { per_hour: 1_000_000 },
    lifecycle_state: 'active',
  },
};

/**
 * The baseline server (not listening yet): `POST /capture`, `GET /contacts/:id`, `GET /contacts?limit=`,
 * `GET /me`; every request first makes one Redis round trip (the hourly quota counter).
 */
export function buildBaselineServer(pool: Pool, redis: Redis): FastifyInstance {
  const app = Fastify({ logger: false });
  const quotaKey = () => `leadflow_bench_baseline:quota:${Math.floor(Date.now() / 3_600_000)}`;
  app.addHook('onRequest', async () => {
    await redis.incr(quotaKey());
  });

  app.get('/me', async () => ME);

  app.post('/capture', async (request, reply) => {
    const body = (request.body ?? {}) as CaptureBody;
    if (text(body.email) === null && text(body.phone) === null) {
      return reply.code(400).send({ code: 'validation_error', message: 'email or phone is required' });
    }
    return insertOrFind(pool, body);
  });

  app.get<{ Params: { id: string } }>('/contacts/:id', async (request, reply) => {
    if (!UUID.test(request.params.id)) return reply.code(404).send({ code: 'not_found' });
    // by primary key, the merged state checked on the row, as the api reads it since 7f9f982 (with the
    // predicate in the WHERE the planner may walk the partial list index: slow once the table is large)
    const result = await pool.query(`SELECT ${CONTACT_COLUMNS} FROM bench.contacts WHERE account_id = $1 AND id = $2`, [ACCOUNT_ID, request.params.id]);
    if (result.rowCount === 0 || result.rows[0].merged_into_id !== null) return reply.code(404).send({ code: 'not_found' });
    return { data: result.rows[0] };
  });

  app.get<{ Querystring: { limit?: string } }>('/contacts', async (request, reply) => {
    const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return reply.code(400).send({ code: 'invalid_request' });
    const result = await pool.query<{ id: string; created_at: Date }>(
      `SELECT ${CONTACT_COLUMNS} FROM bench.contacts WHERE account_id = $1 AND merged_into_id IS NULL
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      [ACCOUNT_ID, limit + 1],
    );
    const rows = result.rows.slice(0, limit);
    const last = rows[rows.length - 1];
    const hasMore = result.rows.length > limit;
    return {
      data: rows,
      pagination: { next_cursor: hasMore && last ? `${last.created_at.toISOString()}|${last.id}` : null, has_more: hasMore, limit },
    };
  });

  return app;
}
