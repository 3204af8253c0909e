import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AccountId, asAccountId, newId } from '@leadflow/shared-kernel';
import { PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { ContactRegistrationsReassignmentPort, EventsRepository, EventState, RegistrationState } from '@leadflow/events-core';
import { EventsHttpModule } from '../src';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

const QUIET = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined };
const at = (iso: string) => new Date(iso);

/**
 * The events adapters on real PostgreSQL (the context runs no job: EventsJobsModule is empty), through
 * EventsHttpModule's bindings in an application context without the HTTP server: events with their
 * editions in position order, slugs per account, registrations (one per edition and contact, the row
 * lock of a re-registration), custom events, and the contacts-merge reassignment; every read keeps to
 * its account.
 */
describe('Events adapters (PostgreSQL)', () => {
  let services: TestServices;
  let moduleRef: TestingModule;
  let db: DataSource;
  let events: EventsRepository;
  let reassignment: ContactRegistrationsReassignmentPort;
  let transactions: TransactionHost;

  beforeAll(async () => {
    services = await createTestServices();
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ config: services.config() }), EventsHttpModule] })
      .setLogger(QUIET)
      .compile();
    await moduleRef.init();
    db = moduleRef.get(DataSource);
    events = moduleRef.get(EventsRepository);
    reassignment = moduleRef.get(ContactRegistrationsReassignmentPort);
    transactions = moduleRef.get(TransactionHost);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await services?.dispose();
  });

  const event = async (accountId: AccountId, overrides: Partial<EventState> = {}): Promise<EventState> => {
    const id = overrides.id ?? newId();
    const value: EventState = {
      id,
      accountId,
      slug: `salon-${newId().slice(-8)}`,
      name: 'Salon de l’habitation',
      status: 'published',
      languages: ['fr', 'en'],
      createdAt: at('2026-05-01T12:00:00.000Z'),
      editions: [
        { id: newId(), eventId: id, name: 'Montréal', startsAt: at('2026-09-01T13:00:00.000Z'), endsAt: at('2026-09-01T21:00:00.000Z'), status: 'open', position: 0 },
      ],
      ...overrides,
    };
    await transactions.run(() => events.insertEvents(accountId, [value]));
    return value;
  };

  const registration = (ev: EventState, overrides: Partial<RegistrationState> = {}): RegistrationState => ({
    id: newId(),
    accountId: ev.accountId,
    contactId: newId(),
    eventId: ev.id,
    editionId: ev.editions[0].id,
    language: 'fr',
    status: 'registered',
    optedOutAt: null,
    confirmationEmailId: null,
    createdAt: at('2026-06-01T12:00:00.000Z'),
    updatedAt: at('2026-06-01T12:00:00.000Z'),
    ...overrides,
  });

  it("an event's editions are written in one statement and read back in position order, by id or by slug", async () => {
    const a = asAccountId(newId());
    const id = newId();
    const editions = [
      { id: newId(), eventId: id, name: 'Québec', startsAt: at('2026-10-01T13:00:00.000Z'), endsAt: at('2026-10-01T21:00:00.000Z'), status: 'open' as const, position: 2 },
      { id: newId(), eventId: id, name: 'Montréal', startsAt: at('2026-09-01T13:00:00.000Z'), endsAt: at('2026-09-01T21:00:00.000Z'), status: 'cancelled' as const, position: 0 },
      { id: newId(), eventId: id, name: 'Laval', startsAt: at('2026-09-15T13:00:00.000Z'), endsAt: at('2026-09-15T21:00:00.000Z'), status: 'ended' as const, position: 1 },
    ];
    const made = await event(a, { id, editions });
    const expected = { ...made, editions: [...editions].sort((x, y) => x.position - y.position) };
    expect(await events.findEvent(a, { id })).toEqual(expected);
    expect(await events.findEvent(a, { slug: made.slug })).toEqual(expected);
    expect(await db.query(`SELECT count(*)::int AS n FROM events.editions WHERE event_id = $1 AND account_id = $2`, [id, a])).toEqual([{ n: 3 }]);
  });

  it('an event without editions reads back with an empty list', async () => {
    const a = asAccountId(newId());
    const made = await event(a, { editions: [] });
    expect((await events.findEvent(a, { id: made.id }))?.editions).toEqual([]);
  });

  it("another account's event (by id or slug) and a non-UUID id read as missing", async () => {
    const a = asAccountId(newId());
    const made = await event(a);
    const b = asAccountId(newId());
    expect(await events.findEvent(b, { id: made.id })).toBeNull();
    expect(await events.findEvent(b, { slug: made.slug })).toBeNull();
    expect(await events.findEvent(a, { id: 'salon-2026' })).toBeNull();
  });

  it('a slug is taken only within its account: slugsTaken answers the taken ones, and the table refuses a second one (events_slug_unique)', async () => {
    const a = asAccountId(newId());
    const made = await event(a);
    expect(await events.slugsTaken(a, [made.slug, 'libre'])).toEqual([made.slug]);
    expect(await events.slugsTaken(asAccountId(newId()), [made.slug])).toEqual([]);
    expect(await events.slugsTaken(a, [])).toEqual([]);
    await expect(event(a, { slug: made.slug })).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'events_slug_unique' } });
    await event(asAccountId(newId()), { slug: made.slug });
  });

  it('one registration per edition and contact: a second insert is refused without error (ON CONFLICT DO NOTHING) and the first is kept', async () => {
    const ev = await event(asAccountId(newId()));
    const first = registration(ev, { language: 'en' });
    expect(await transactions.run(() => events.insertRegistrationIfAbsent(first))).toBe(true);
    expect(await transactions.run(() => events.insertRegistrationIfAbsent({ ...first, id: newId(), language: 'fr' }))).toBe(false);
    const rows = await db.query(`SELECT id, language, status FROM events.registrations WHERE edition_id = $1`, [ev.editions[0].id]);
    expect(rows).toEqual([{ id: first.id, language: 'en', status: 'registered' }]);
    expect(await events.findRegistration(asAccountId(ev.accountId), ev.editions[0].id, first.contactId)).toEqual(first);
  });

  it("another account's registration id and a non-UUID id read as missing; an update writes only in its account", async () => {
    const ev = await event(asAccountId(newId()));
    const mine = registration(ev);
    await transactions.run(() => events.insertRegistrationIfAbsent(mine));
    expect(await events.findRegistrationById(asAccountId(newId()), mine.id)).toBeNull();
    expect(await events.findRegistration(asAccountId(newId()), mine.editionId, mine.contactId)).toBeNull();
    expect(await events.findRegistrationById(asAccountId(ev.accountId), 'r-1')).toBeNull();
    const declined = { ...mine, status: 'declined' as const, optedOutAt: at('2026-06-02T00:00:00.000Z'), updatedAt: at('2026-06-02T00:00:00.000Z') };
    await transactions.run(() => events.updateRegistration({ ...declined, accountId: newId() }));
    expect((await events.findRegistrationById(asAccountId(ev.accountId), mine.id))?.status).toBe('registered');
    await transactions.run(() => events.updateRegistration(declined));
    expect(await events.findRegistrationById(asAccountId(ev.accountId), mine.id)).toEqual(declined);
  });

  it('a locked registration read (FOR UPDATE) makes a second one wait until the first transaction ends', async () => {
    const ev = await event(asAccountId(newId()));
    const mine = registration(ev);
    await transactions.run(() => events.insertRegistrationIfAbsent(mine));
    const accountId = asAccountId(ev.accountId);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const first = transactions.run(async () => {
      await events.findRegistration(accountId, mine.editionId, mine.contactId, { lock: true });
      locked();
      await released;
    });
    await taken;
    expect(await events.findRegistrationById(accountId, mine.id)).not.toBeNull(); // a plain read does not wait
    let second = false;
    const waiting = transactions.run(() => events.findRegistrationById(accountId, mine.id, { lock: true })).then(() => (second = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second).toBe(false);
    release();
    await first;
    await waiting;
    expect(second).toBe(true);
  });

  it('a custom event is written with its payload as JSON and its counters', async () => {
    const a = asAccountId(newId());
    const id = newId();
    const apiKeyId = newId();
    await transactions.run(() =>
      events.insertCustomEvent({
        id,
        accountId: a,
        contactId: newId(),
        name: 'Inscription',
        payload: { plan: 'pro', seats: 3, nested: { ok: true } },
        payloadTruncated: true,
        sourceLabel: 'site web',
        contactArchived: false,
        contactCreated: true,
        enrolledExecutions: 2,
        apiKeyId,
        createdAt: at('2026-06-01T12:00:00.000Z'),
      }),
    );
    const [row] = await db.query(`SELECT account_id, name, payload, payload_truncated, source_label, contact_created, enrolled_executions, api_key_id FROM events.custom_events WHERE id = $1`, [id]);
    expect(row).toEqual({ account_id: a, name: 'Inscription', payload: { plan: 'pro', seats: 3, nested: { ok: true } }, payload_truncated: true, source_label: 'site web', contact_created: true, enrolled_executions: 2, api_key_id: apiKeyId });
  });

  it("the contacts merge moves the contact's registrations of that account, keeps (skips) one whose edition the target is already registered in, and plans the same", async () => {
    const a = asAccountId(newId());
    const first = await event(a);
    const second = await event(a);
    const [from, to] = [newId(), newId()];
    const moving = registration(first, { contactId: from, createdAt: at('2026-06-01T00:00:00.000Z') });
    const clashing = registration(second, { contactId: from, createdAt: at('2026-06-02T00:00:00.000Z') });
    const targets = registration(second, { contactId: to });
    const elsewhere = registration(await event(asAccountId(newId())), { contactId: from });
    for (const entry of [moving, clashing, targets, elsewhere]) await transactions.run(() => events.insertRegistrationIfAbsent(entry));
    const expected = { moved: [moving.id], skipped: [clashing.id] };
    expect(await reassignment.plan(a, from, to)).toEqual(expected);
    expect(await transactions.run(() => reassignment.reassign(a, from, to, at('2026-07-01T00:00:00.000Z')))).toEqual(expected);
    const owners = await db.query(`SELECT id, contact_id FROM events.registrations WHERE id = ANY($1)`, [[moving.id, clashing.id, targets.id, elsewhere.id]]);
    expect(Object.fromEntries(owners.map((row: any) => [row.id, row.contact_id]))).toEqual({ [moving.id]: to, [clashing.id]: from, [targets.id]: to, [elsewhere.id]: from });
    expect(await reassignment.plan(a, 'x', to)).toEqual({ moved: [], skipped: [] });
  });
});
