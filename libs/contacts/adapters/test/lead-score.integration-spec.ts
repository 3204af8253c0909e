import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  Contact,
  ContactState,
  LeadScoreRecomputed,
  LeadScoreRepository,
  NewContactInput,
  RecomputeLeadScoreCommand,
  RecomputeLeadScoreHandler,
  ReviewDueLeadScoresCommand,
  ReviewDueLeadScoresHandler,
} from '@leadflow/contacts-core';
import { AccountId, asAccountId, FixedClock, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { ActivityLogWriter, PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { CONTACTS_RECORDS } from '../src/infrastructure/persistence/contacts.records';
import { TypeOrmContactsRepository } from '../src/infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmLeadScoreRepository } from '../src/infrastructure/persistence/typeorm-lead-score.repository';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The lead score's recompute on real PostgreSQL (README › Decisions › Lead score): the signals read
 * from `platform.activity_log` and the contacts schema, the score columns written, idempotence,
 * tenant isolation, merged contacts and the scheduled review pass.
 */
describe('lead score recompute (TypeOrmLeadScoreRepository)', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let commands: CommandBus;
  let contacts: TypeOrmContactsRepository;
  let transactions: TransactionHost;
  let activity: ActivityLogWriter;
  let sql: DataSource;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00.000Z'));
  const A = asAccountId(newId());
  const B = asAccountId(newId());

  beforeAll(async () => {
    services = await createTestServices();
    @Module({
      imports: [PlatformModule.forRoot({ config: services.config(), clock }), TypeOrmModule.forFeature(CONTACTS_RECORDS)],
      providers: [
        TypeOrmContactsRepository,
        { provide: LeadScoreRepository, useClass: TypeOrmLeadScoreRepository },
        RecomputeLeadScoreHandler,
        ReviewDueLeadScoresHandler,
      ],
    })
    class TestModule {}
    context = await NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
    await context.init();
    commands = context.get(CommandBus);
    contacts = context.get(TypeOrmContactsRepository);
    transactions = context.get(TransactionHost);
    activity = context.get(ActivityLogWriter);
    sql = context.get(DataSource);
  });
  afterAll(async () => {
    await context.close();
    await services.dispose();
  });

  /** A contact created through the API at the clock's now (initial score set by Contact.create). */
  async function created(accountId: AccountId, input: NewContactInput = {}): Promise<ContactState> {
    const contact = Contact.create({ email: `p${newId()}@example.com`, ...input }, { id: newId(), accountId, systemId: newId(), source: 'api', now: clock.now(), definitions: [] });
    await transactions.run(() => contacts.insertContact(contact.snapshot));
    return contact.snapshot;
  }

  const record = (accountId: AccountId, contactId: string, type: string, data: Record<string, unknown> = {}) =>
    transactions.run(() => activity.record(accountId, [{ contactId, type, actor: SYSTEM_ACTOR, data }]));

  const recompute = (accountId: AccountId, contactId: string): Promise<LeadScoreRecomputed> => commands.execute(new RecomputeLeadScoreCommand(accountId, contactId));

  async function stored(contactId: string): Promise<{ score: number; score_review_at: Date | null; updated_at: Date }> {
    const [row] = await sql.query(`SELECT score, score_review_at, updated_at FROM contacts.contacts WHERE id = $1`, [contactId]);
    return row;
  }

  it('a new contact carries its initial score in the INSERT (no statement of its own)', async () => {
    const contact = await created(A, { firstName: 'Julie', phone: '514-555-0100' });
    // email 5 + phone 5 + name 4 + recency 15
    expect(contact.score).toBe(29);
    expect(await stored(contact.id)).toMatchObject({ score: 29, score_review_at: new Date(clock.now().getTime() + 7 * DAY + 1) });
  });

  it('rule: a quote viewed raises the score by 8, a quote signed by 12 more, each quote counted once', async () => {
    const contact = await created(A);
    const quote = newId();
    await record(A, contact.id, 'quote_viewed', { quote_id: quote, status: 'viewed' });
    expect((await recompute(A, contact.id)).score).toMatchObject({ score: 28, parts: { engagement: 8 } });
    await record(A, contact.id, 'quote_viewed', { quote_id: newId(), status: 'viewed' });
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(8);
    await record(A, contact.id, 'quote_signed', { quote_id: quote, status: 'signed' });
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(20);
    expect((await stored(contact.id)).score).toBe(40);
  });

  it('rule: a booking not cancelled 10, attended +5, the latest outcome of a booking wins, a cancelled booking counts nothing', async () => {
    const contact = await created(A);
    const [first, second] = [newId(), newId()];
    await record(A, contact.id, 'booking_created', { booking_id: first });
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(10);
    clock.advance(1000);
    await record(A, contact.id, 'booking_outcome_recorded', { booking_id: first, status: 'no_show', previous_status: 'confirmed' });
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(5);
    clock.advance(1000);
    await record(A, contact.id, 'booking_outcome_recorded', { booking_id: first, status: 'completed', previous_status: 'no_show' });
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(15);
    const other = await created(A);
    await record(A, other.id, 'booking_created', { booking_id: second });
    await record(A, other.id, 'booking_cancelled', { booking_id: second, cancelled_by: 'integration' });
    expect((await recompute(A, other.id)).score?.parts.engagement).toBe(0);
  });

  it('rule: custom events 2 each up to 6; email replies 4 each up to 8', async () => {
    const contact = await created(A);
    for (let i = 0; i < 4; i++) await record(A, contact.id, 'custom_event', { event_id: newId(), event: 'inscription' });
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(6);
    await record(A, contact.id, 'email_replied');
    expect((await recompute(A, contact.id)).score?.parts.engagement).toBe(10);
  });

  it('rule: consents of the latest presuasion submission (email consent lost once unsubscribed), a lead capture gives SMS consent and a funnel', async () => {
    const email = `consent${newId()}@example.com`;
    const contact = await created(A, { email });
    const submit = (consent: Record<string, unknown>) => {
      clock.advance(1);
      return sql.query(
        `INSERT INTO contacts.presuasion_submissions (account_id, id, tool_slug, tool_name, contact_id, contact_was_new, tag_id, activity_id, answers, person, consent, attribution, submitted_at, created_at)
         VALUES ($1, $2, 'quiz', 'Quiz', $3, false, $4, $5, '[]', '{}', $6, '{}', $7, $7)`,
        [A, newId(), contact.id, newId(), newId(), JSON.stringify(consent), clock.now()],
      );
    };
    await submit({ sms: false, email: false, ads: null });
    await submit({ sms: true, email: true, ads: null });
    expect((await recompute(A, contact.id)).score?.parts).toMatchObject({ consent: 10, source: 4, engagement: 8 });
    await sql.query(`INSERT INTO contacts.email_unsubscribes (account_id, email, unsubscribed_at) VALUES ($1, $2, $3)`, [A, email, clock.now()]);
    expect((await recompute(A, contact.id)).score?.parts.consent).toBe(6);

    const captured = await created(A);
    await sql.query(`INSERT INTO contacts.lead_captures (id, account_id, contact_id, activity_id, contact_was_new, captured_at) VALUES ($1, $2, $3, $4, true, $5)`, [
      newId(),
      A,
      captured.id,
      newId(),
      clock.now(),
    ]);
    expect((await recompute(A, captured.id)).score?.parts).toMatchObject({ consent: 6, source: 4 });
  });

  it('recomputing with nothing new recorded writes nothing (idempotent)', async () => {
    const contact = await created(A);
    await record(A, contact.id, 'quote_viewed', { quote_id: newId() });
    expect((await recompute(A, contact.id)).changed).toBe(true);
    const after = await stored(contact.id);
    expect(await recompute(A, contact.id)).toMatchObject({ changed: false });
    expect(await stored(contact.id)).toEqual(after);
  });

  it('a score change leaves updated_at as it is; a contact update leaves the score as it is', async () => {
    const contact = await created(A);
    const before = await stored(contact.id);
    clock.advance(1000);
    await record(A, contact.id, 'quote_signed', { quote_id: newId() });
    await recompute(A, contact.id);
    const scored = await stored(contact.id);
    expect(scored.score).toBe(before.score + 20);
    expect(scored.updated_at).toEqual(before.updated_at);
    const state = (await contacts.findContact(A, contact.id))!;
    await transactions.run(() => contacts.updateContact({ ...state, company: 'Tremblay', score: 0, scoreReviewAt: null, updatedAt: clock.now() }));
    expect(await stored(contact.id)).toMatchObject({ score: scored.score, score_review_at: scored.score_review_at });
  });

  it("another account's contact id, or an id that is not a UUID: nothing read, nothing written", async () => {
    const theirs = await created(B);
    await record(B, theirs.id, 'quote_signed', { quote_id: newId() });
    const before = await stored(theirs.id);
    expect(await recompute(A, theirs.id)).toEqual({ score: null, changed: false });
    expect(await recompute(A, 'not-a-uuid')).toEqual({ score: null, changed: false });
    expect(await stored(theirs.id)).toEqual(before);
    // the entries of account B are never read for a contact of account A either
    const mine = await created(A);
    await record(B, mine.id, 'quote_signed', { quote_id: newId() });
    expect((await recompute(A, mine.id)).score?.parts.engagement).toBe(0);
  });

  it('a disqualified contact scores 0; a merged one keeps its score and leaves the review schedule', async () => {
    const disqualified = await created(A);
    await sql.query(`UPDATE contacts.contacts SET disqualified_at = $2 WHERE id = $1`, [disqualified.id, clock.now()]);
    await recompute(A, disqualified.id);
    expect(await stored(disqualified.id)).toMatchObject({ score: 0, score_review_at: null });
    const merged = await created(A);
    await sql.query(`UPDATE contacts.contacts SET merged_into_id = $2, merged_at = $3 WHERE id = $1`, [merged.id, disqualified.id, clock.now()]);
    expect(await recompute(A, merged.id)).toEqual({ score: null, changed: true });
    expect(await stored(merged.id)).toMatchObject({ score: merged.score, score_review_at: null });
  });

  it('the review pass recomputes the contacts whose recency dropped, and only them', async () => {
    await sql.query(`UPDATE contacts.contacts SET score_review_at = NULL`);
    const old = await created(A, { firstName: 'Ancien' });
    clock.advance(3 * DAY);
    const recent = await created(B);
    clock.advance(4 * DAY + 1000);
    expect(await commands.execute(new ReviewDueLeadScoresCommand())).toEqual({ reviewed: 1 });
    // email 5 + name 4 + recency 10 (8 days old)
    expect(await stored(old.id)).toMatchObject({ score: 19, score_review_at: new Date(old.createdAt.getTime() + 30 * DAY + 1) });
    expect((await stored(recent.id)).score).toBe(recent.score);
    expect(await commands.execute(new ReviewDueLeadScoresCommand())).toEqual({ reviewed: 0 });
    clock.advance(90 * DAY);
    expect(await commands.execute(new ReviewDueLeadScoresCommand(1, 10))).toEqual({ reviewed: 2 });
    expect(await stored(old.id)).toMatchObject({ score: 9, score_review_at: null });
  });
});
