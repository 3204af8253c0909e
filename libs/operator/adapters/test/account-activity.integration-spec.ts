import { createHash } from 'node:crypto';
import { Test, TestingModule } from '@nestjs/testing';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccountId, Actor, asAccountId, decodeCursor, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { ActivityLogWriter, PlatformModule, RedisConnection, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { GetAccountQuery } from '@leadflow/accounts-contracts';
import { AccountActivityReadModel, ListAccountActivityQuery } from '@leadflow/operator-core';
import { CONSOLE_LOGIN_ATTEMPTS, CONSOLE_SESSION_TTL_SECONDS, ConsoleSessionStore, OperatorHttpModule } from '../src';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

/** The accounts context's published GetAccountQuery, answered from the accounts this file made (operator may not import the accounts adapters). */
const KNOWN_ACCOUNTS = new Set<string>();
@QueryHandler(GetAccountQuery)
class KnownAccountsHandler implements IQueryHandler<GetAccountQuery> {
  async execute({ accountId }: GetAccountQuery) {
    return KNOWN_ACCOUNTS.has(accountId) ? ({ id: accountId } as never) : null;
  }
}

const QUIET = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined };

/**
 * The operator adapters on real PostgreSQL (the context runs no job), and Redis, through OperatorHttpModule
 * in an application context without the HTTP server (the accounts context's GetAccountQuery answered
 * by a stub handler): the account activity read model over `platform.activity_log` (tenant filter, contact and type
 * filters, keyset on `(created_at, id)` with opaque and legacy cursors, exact totals) and its query's
 * 404 for an unknown account; the console's sessions and login failure counter in Redis.
 */
describe('Operator adapters (PostgreSQL, Redis)', () => {
  let services: TestServices;
  let moduleRef: TestingModule;
  let db: DataSource;
  let activity: AccountActivityReadModel;
  let writer: ActivityLogWriter;
  let transactions: TransactionHost;
  let queries: QueryBus;

  beforeAll(async () => {
    services = await createTestServices();
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ config: services.config() }), OperatorHttpModule], providers: [KnownAccountsHandler] })
      .setLogger(QUIET)
      .compile();
    await moduleRef.init();
    db = moduleRef.get(DataSource);
    activity = moduleRef.get(AccountActivityReadModel);
    writer = moduleRef.get(ActivityLogWriter);
    transactions = moduleRef.get(TransactionHost);
    queries = moduleRef.get(QueryBus);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await services?.dispose();
  });

  const account = async (): Promise<AccountId> => {
    const id = asAccountId(newId());
    KNOWN_ACCOUNTS.add(id);
    return id;
  };

  const record = (accountId: AccountId, entries: { contactId: string | null; type: string; at: Date; actor?: Actor }[]) =>
    transactions.run(() => writer.record(accountId, entries.map((entry) => ({ ...entry, actor: entry.actor ?? SYSTEM_ACTOR }))));

  const none = { contactId: null, type: null };

  it("an account's activity pages on (created_at, id) descending with opaque cursors and an exact total; another account's entries never show", async () => {
    const a = await account();
    const base = Date.parse('2026-05-01T10:00:00.000Z');
    const ids = await record(a, [0, 0, 1000, 2000, 3000].map((offset, index) => ({ contactId: null, type: `t${index}`, at: new Date(base + offset) })));
    await record(asAccountId(newId()), [{ contactId: null, type: 't0', at: new Date(base + 5000) }]);
    const created = ids.map((id, index) => ({ id, at: base + [0, 0, 1000, 2000, 3000][index] }));
    const expected = created.sort((x, y) => y.at - x.at || (y.id < x.id ? -1 : 1)).map((entry) => entry.id);
    const first = await activity.list(a, none, { limit: 2, after: null });
    expect(first.pagination).toMatchObject({ has_more: true, total_count: 5, limit: 2 });
    const second = await activity.list(a, none, { limit: 2, after: decodeCursor(first.pagination.next_cursor!) });
    const third = await activity.list(a, none, { limit: 2, after: decodeCursor(second.pagination.next_cursor!) });
    expect(third.pagination).toMatchObject({ has_more: false, next_cursor: null, total_count: 5 });
    expect([...first.data, ...second.data, ...third.data].map((entry) => entry.id)).toEqual(expected);
  });

  it('an entry reads with its contact, type, actor and ISO time as written', async () => {
    const a = await account();
    const contactId = newId();
    const actor: Actor = { type: 'api_key', id: newId(), name: 'Site web', via: null } as Actor;
    const [id] = await record(a, [{ contactId, type: 'note_added', at: new Date('2026-05-02T08:30:00.000Z'), actor }]);
    const page = await activity.list(a, none, { limit: 10, after: null });
    expect(page.data).toEqual([{ id, contact_id: contactId, type: 'note_added', actor: expect.objectContaining({ type: 'api_key', id: (actor as any).id, name: 'Site web' }), created_at: '2026-05-02T08:30:00.000Z' }]);
    const [row] = await db.query(`SELECT account_id, contact_id, type FROM platform.activity_log WHERE id = $1`, [id]);
    expect(row).toEqual({ account_id: a, contact_id: contactId, type: 'note_added' });
  });

  it('the contact and type filters narrow the entries and the total together', async () => {
    const a = await account();
    const [c1, c2] = [newId(), newId()];
    const at = new Date('2026-05-03T00:00:00.000Z');
    await record(a, [
      { contactId: c1, type: 'contact_created', at },
      { contactId: c1, type: 'note_added', at },
      { contactId: c2, type: 'note_added', at },
      { contactId: null, type: 'api_key_created', at },
    ]);
    const count = async (filter: { contactId: string | null; type: string | null }) => (await activity.list(a, filter, { limit: 10, after: null })).pagination.total_count;
    expect(await count(none)).toBe(4);
    expect(await count({ contactId: c1, type: null })).toBe(2);
    expect(await count({ contactId: null, type: 'note_added' })).toBe(2);
    expect(await count({ contactId: c1, type: 'note_added' })).toBe(1);
    expect(await count({ contactId: newId(), type: null })).toBe(0);
    expect((await activity.list(a, { contactId: c2, type: 'note_added' }, { limit: 10, after: null })).data.map((entry) => entry.contact_id)).toEqual([c2]);
  });

  it('a legacy timestamp-only cursor reads the entries strictly older than that time', async () => {
    const a = await account();
    await record(a, [
      { contactId: null, type: 'old', at: new Date('2026-05-01T00:00:00.000Z') },
      { contactId: null, type: 'same', at: new Date('2026-05-02T00:00:00.000Z') },
      { contactId: null, type: 'new', at: new Date('2026-05-03T00:00:00.000Z') },
    ]);
    const page = await activity.list(a, none, { limit: 10, after: { createdAt: new Date('2026-05-02T00:00:00.000Z') } as any });
    expect(page.data.map((entry) => entry.type)).toEqual(['old']);
  });

  it("the activity query answers resource_not_found (account) for an unknown account, and the account's entries for a known one", async () => {
    const unknown = asAccountId(newId());
    await record(unknown, [{ contactId: null, type: 'orphan', at: new Date() }]);
    await expect(queries.execute(new ListAccountActivityQuery(unknown, none, { limit: 10, after: null }))).rejects.toMatchObject({ code: 'not_found', details: { resource: 'account' } });
    const a = await account();
    await record(a, [{ contactId: null, type: 'account_created', at: new Date() }]);
    const page = await queries.execute(new ListAccountActivityQuery(a, none, { limit: 10, after: null }));
    expect(page.data.map((entry) => entry.type)).toEqual(['account_created']);
  });

  it('a console session is stored in Redis under the hash of its id only, with the 8-hour TTL, and stops working once closed', async () => {
    const sessions = moduleRef.get(ConsoleSessionStore);
    const redis = moduleRef.get(RedisConnection);
    const session = await sessions.open();
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessions.find(session.id)).toEqual(session);
    const keys = await redis.client.keys(`${services.redisPrefix}*console:session:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0].endsWith(createHash('sha256').update(session.id).digest('hex'))).toBe(true);
    expect(keys[0]).not.toContain(session.id);
    const ttl = await redis.client.ttl(keys[0]);
    expect(ttl).toBeGreaterThan(CONSOLE_SESSION_TTL_SECONDS - 10);
    expect(ttl).toBeLessThanOrEqual(CONSOLE_SESSION_TTL_SECONDS);
    expect(await sessions.find('short')).toBeNull();
    expect(await sessions.find(undefined)).toBeNull();
    await sessions.close(session.id);
    expect(await sessions.find(session.id)).toBeNull();
  });

  it('login attempts of an address stop after 10 failures in the window (Retry-After the window left); another address is not affected', async () => {
    const sessions = moduleRef.get(ConsoleSessionStore);
    const ip = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
    for (let failure = 0; failure < CONSOLE_LOGIN_ATTEMPTS - 1; failure++) await sessions.recordFailure(ip);
    expect((await sessions.mayTryLogin(ip)).allowed).toBe(true);
    await sessions.recordFailure(ip);
    const refused = await sessions.mayTryLogin(ip);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(590);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect((await sessions.mayTryLogin('198.51.100.7')).allowed).toBe(true);
  });
});
