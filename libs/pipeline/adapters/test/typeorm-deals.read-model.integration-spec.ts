import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { provisionPipelines } from '@leadflow/pipeline-core';
import { AccountId, asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { PIPELINE_RECORDS } from '../src/infrastructure/persistence/pipeline.records';
import { TypeOrmDealsReadModel } from '../src/infrastructure/persistence/typeorm-deals.read-model';
import { TypeOrmPipelineRepository } from '../src/infrastructure/persistence/typeorm-pipeline.repository';

/** The deals read model (read-only join of `contacts.contacts`) and the stage lookup on real PostgreSQL. */
describe('TypeOrmDealsReadModel', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let deals: TypeOrmDealsReadModel;
  let pipelines: TypeOrmPipelineRepository;
  let dataSource: DataSource;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00.000Z'));
  const A = asAccountId(newId());
  const B = asAccountId(newId());

  /** A contacts row written directly (the contacts context's table; test data only). */
  const contact = async (accountId: AccountId, fields: { stageId?: string | null; pipelineId?: string | null; archived?: boolean; mergedInto?: string; at?: Date } = {}) => {
    const id = newId();
    const at = fields.at ?? clock.now();
    await dataSource.query(
      `INSERT INTO contacts.contacts (id, account_id, email, source, system_id, pipeline_id, stage_id, archived_at, merged_into_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'api', $4, $5, $6, $7, $8, $9, $9)`,
      [id, accountId, `${id}@example.com`, newId(), fields.pipelineId ?? null, fields.stageId ?? null, fields.archived ? at : null, fields.mergedInto ?? null, at],
    );
    return id;
  };

  beforeAll(async () => {
    services = await createTestServices();
    @Module({
      imports: [PlatformModule.forRoot({ config: services.config(), clock }), TypeOrmModule.forFeature(PIPELINE_RECORDS)],
      providers: [TypeOrmDealsReadModel, TypeOrmPipelineRepository],
    })
    class TestModule {}
    context = await NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
    deals = context.get(TypeOrmDealsReadModel);
    pipelines = context.get(TypeOrmPipelineRepository);
    dataSource = context.get(DataSource);
  });
  afterAll(async () => {
    await context.close();
    await services.dispose();
  });

  const provision = async (accountId: AccountId, stageCount: number) => {
    const [pipeline] = provisionPipelines(
      [{ name: 'Ventes', slug: 'ventes', stages: Array.from({ length: stageCount }, (_, i) => ({ name: `S${i}`, slug: `s${i}`, isLost: i === 1 })) }],
      [],
      clock.now(),
    );
    await context.get(TransactionHost).run(() => pipelines.insert(accountId, [pipeline]));
    return pipeline;
  };

  it('lists stages with contact_count in one statement (no query per stage), archived and merged contacts left out', async () => {
    const pipeline = await provision(A, 12);
    const [first, second] = pipeline.stages;
    const survivor = await contact(A, { pipelineId: pipeline.id, stageId: first.id });
    await contact(A, { pipelineId: pipeline.id, stageId: first.id });
    await contact(A, { pipelineId: pipeline.id, stageId: first.id, archived: true });
    await contact(A, { pipelineId: pipeline.id, stageId: first.id, mergedInto: survivor });
    await contact(A, { pipelineId: pipeline.id, stageId: second.id });
    await contact(A);
    await contact(B, { pipelineId: pipeline.id, stageId: first.id });

    const query = jest.spyOn(dataSource.manager, 'query');
    const stages = await deals.listStages(A);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();

    expect(stages).toHaveLength(12);
    expect(stages.map((stage) => stage.contact_count)).toEqual([2, 1, ...Array(10).fill(0)]);
    expect(stages[1]).toMatchObject({ is_lost: true, is_won: false, is_hidden: false, stage_order: 2, pipeline: { id: pipeline.id, name: 'Ventes', is_default: true } });
    expect(await deals.listStages(B)).toEqual([]);
  });

  it('lists deals created_at DESC, id DESC with exact total_count, filtered by stage; isDeal', async () => {
    const C = asAccountId(newId());
    const pipeline = await provision(C, 2);
    const [first, second] = pipeline.stages;
    const older = await contact(C, { pipelineId: pipeline.id, stageId: first.id, at: new Date('2026-05-01T00:00:00.000Z') });
    const newer = await contact(C, { pipelineId: pipeline.id, stageId: second.id, at: new Date('2026-05-02T00:00:00.000Z') });
    const notDeal = await contact(C);
    const page = await deals.listDeals(C, { stageId: null, page: { limit: 1, after: null } });
    expect(page.data.map((deal) => deal.id)).toEqual([newer]);
    expect(page.pagination).toMatchObject({ has_more: true, total_count: 2 });
    const next = await deals.listDeals(C, { stageId: null, page: { limit: 1, after: { createdAt: new Date('2026-05-02T00:00:00.000Z'), id: newer } } });
    expect(next.data.map((deal) => deal.id)).toEqual([older]);
    expect((await deals.listDeals(C, { stageId: first.id, page: { limit: 10, after: null } })).data.map((deal) => deal.id)).toEqual([older]);
    expect(await deals.isDeal(C, older)).toBe(true);
    expect(await deals.isDeal(C, notDeal)).toBe(false);
    expect(await deals.isDeal(A, older)).toBe(false);
    expect(await deals.isDeal(C, 'nope')).toBe(false);
  });

  it("inserting pipelines and stages invalidates the account's cached settings (lead capture) in every process once committed, never on rollback", async () => {
    const invalidate = jest.spyOn(context.get(AccountCacheInvalidation), 'invalidate');
    try {
      const accountId = asAccountId(newId());
      const [kept] = provisionPipelines([{ name: 'Ventes', slug: 'ventes', stages: [{ name: 'Nouveau', slug: 'nouveau' }] }], [], clock.now());
      await context.get(TransactionHost).run(async () => {
        await pipelines.insert(accountId, [kept]);
        expect(invalidate).not.toHaveBeenCalled();
      });
      expect(invalidate.mock.calls).toEqual([['config', accountId]]);
      const [dropped] = provisionPipelines([{ name: 'Autre', slug: 'autre', stages: [{ name: 'Un', slug: 'un' }] }], [], clock.now());
      await expect(
        context.get(TransactionHost).run(async () => {
          await pipelines.insert(asAccountId(newId()), [dropped]);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(invalidate).toHaveBeenCalledTimes(1);
    } finally {
      invalidate.mockRestore();
    }
  });

  it("findStage: the account's stage with its flags; another account's or a non-UUID id is null", async () => {
    const pipeline = await provision(asAccountId(newId()), 2);
    const accountId = asAccountId((await dataSource.query(`SELECT account_id FROM pipeline.pipelines WHERE id = $1`, [pipeline.id]))[0].account_id);
    expect(await pipelines.findStage(accountId, pipeline.stages[1].id)).toEqual({ id: pipeline.stages[1].id, pipelineId: pipeline.id, isLost: true, isDisqualification: false });
    expect(await pipelines.findStage(A, pipeline.stages[1].id)).toBeNull();
    expect(await pipelines.findStage(accountId, 'nope')).toBeNull();
  });
});
