import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MoveContactToStageCommand } from '@leadflow/contacts-contracts';
import { Contact, MoveContactToStageHandler } from '@leadflow/contacts-core';
import { Actor, AccountId, asAccountId, FixedClock, IntegrationEvent, newId, UnitOfWork } from '@leadflow/shared-kernel';
import { JournalWriter, OutboxWriter, PlatformJournal, PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { CONTACTS_RECORDS } from '../src/infrastructure/persistence/contacts.records';
import { TypeOrmContactStageRepository } from '../src/infrastructure/persistence/typeorm-contact-stage.repository';
import { TypeOrmContactsRepository } from '../src/infrastructure/persistence/typeorm-contacts.repository';

/** A stage move on real PostgreSQL: the SQL of TypeOrmContactStageRepository and the all-or-nothing transaction. */
describe('contact stage moves (TypeOrmContactStageRepository, one transaction)', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let dataSource: DataSource;
  let stages: TypeOrmContactStageRepository;
  let contacts: TypeOrmContactsRepository;
  let transactions: TransactionHost;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00.000Z'));
  const A = asAccountId(newId());
  const ACTOR: Actor = { type: 'api_key', id: newId(), name: 'full', via: 'api_key' };
  const PIPELINE = newId();
  const [FIRST, SECOND] = [newId(), newId()];

  const insert = async (accountId: AccountId = A) => {
    const contact = Contact.create({ email: `${newId()}@example.com` }, { id: newId(), accountId, systemId: newId(), source: 'api', now: clock.now(), definitions: [] });
    await transactions.run(() => contacts.insertContact(contact.snapshot));
    return contact.id;
  };
  const row = async (id: string) =>
    (await dataSource.query(`SELECT pipeline_id, stage_id, updated_at, ai_follow_up_stopped_at FROM contacts.contacts WHERE id = $1`, [id]))[0];

  beforeAll(async () => {
    services = await createTestServices();
    @Module({
      imports: [PlatformModule.forRoot({ config: services.config(), clock }), TypeOrmModule.forFeature(CONTACTS_RECORDS)],
      providers: [TypeOrmContactsRepository, TypeOrmContactStageRepository],
    })
    class TestModule {}
    context = await NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
    dataSource = context.get(DataSource);
    stages = context.get(TypeOrmContactStageRepository);
    contacts = context.get(TypeOrmContactsRepository);
    transactions = context.get(TransactionHost);
  });
  afterAll(async () => {
    await context.close();
    await services.dispose();
  });

  it('setStage writes pipeline, stage and updated_at; the first human decision instant is kept; an automation move marks nothing', async () => {
    const id = await insert();
    const automated = await insert();
    const first = new Date('2026-06-01T10:00:00.000Z');
    const later = new Date('2026-06-01T11:00:00.000Z');
    await stages.setStage(A, id, { pipelineId: PIPELINE, stageId: FIRST }, first, { stopAiFollowUp: true });
    await stages.setStage(A, id, { pipelineId: PIPELINE, stageId: SECOND }, later, { stopAiFollowUp: true });
    expect(await row(id)).toEqual({ pipeline_id: PIPELINE, stage_id: SECOND, updated_at: later, ai_follow_up_stopped_at: first });
    await stages.setStage(A, automated, { pipelineId: PIPELINE, stageId: FIRST }, first, { stopAiFollowUp: false });
    expect((await row(automated)).ai_follow_up_stopped_at).toBeNull();
  });

  it("setStage never touches another account's contact", async () => {
    const id = await insert(asAccountId(newId()));
    await stages.setStage(A, id, { pipelineId: PIPELINE, stageId: FIRST }, clock.now(), { stopAiFollowUp: true });
    expect(await row(id)).toMatchObject({ pipeline_id: null, stage_id: null, ai_follow_up_stopped_at: null });
  });

  it('atomicity: when the journal write (activity entry and outbox rows) fails, the stage and the AI follow-up marker are rolled back', async () => {
    const id = await insert();
    const failingJournal = {
      write: async (_account: string, _entries: unknown[], events: readonly IntegrationEvent[]) => {
        throw new Error(`outbox unavailable (${events.length})`);
      },
    } as unknown as JournalWriter;
    const journal = new PlatformJournal(failingJournal, context.get(OutboxWriter));
    const handler = new MoveContactToStageHandler(contacts, stages, context.get(UnitOfWork), journal, clock);
    const before = await row(id);
    await expect(
      handler.execute(new MoveContactToStageCommand(A, id, { pipelineId: PIPELINE, stageId: FIRST, acceptsDisqualifiedLeads: false }, ACTOR)),
    ).rejects.toThrow('outbox unavailable');
    expect(await row(id)).toEqual(before);
    expect(await dataSource.query(`SELECT id FROM platform.activity_log WHERE contact_id = $1`, [id])).toEqual([]);
    expect(await dataSource.query(`SELECT id FROM platform.outbox WHERE payload->>'contact_id' = $1`, [id])).toEqual([]);

    const ok = new MoveContactToStageHandler(contacts, stages, context.get(UnitOfWork), new PlatformJournal(context.get(JournalWriter), context.get(OutboxWriter)), clock);
    await ok.execute(new MoveContactToStageCommand(A, id, { pipelineId: PIPELINE, stageId: FIRST, acceptsDisqualifiedLeads: false }, ACTOR));
    expect(await row(id)).toMatchObject({ stage_id: FIRST, ai_follow_up_stopped_at: clock.now() });
    expect(await dataSource.query(`SELECT type FROM platform.activity_log WHERE contact_id = $1`, [id])).toEqual([{ type: 'stage_changed' }]);
    expect(await dataSource.query(`SELECT type FROM platform.outbox WHERE payload->>'contact_id' = $1`, [id])).toEqual([{ type: 'stage_changed' }]);
  });
});
