import type { CommandBus } from '@nestjs/cqrs';
import { AccountId, Actor, asAccountId, DomainError, newId, Page } from '@leadflow/shared-kernel';
import { ContactStageChange, MoveContactToStageCommand, RemoveContactFromPipelineCommand } from '@leadflow/contacts-contracts';
import type { DealView, PipelineStageView } from '@leadflow/pipeline-contracts';
import type { Pipeline } from '../../domain/pipeline.aggregate';
import { InMemoryPipelineRepository } from '../../testing/in-memory-pipeline.repository';
import { DealsReadModel } from '../ports/deals.read-model.port';
import { MoveDealCommand } from './move-deal/move-deal.command';
import { PlaceDealCommand } from './place-deal/place-deal.command';
import { RemoveDealCommand } from './remove-deal/remove-deal.command';
import { MoveDealHandler } from './move-deal/move-deal.handler';
import { PlaceDealHandler } from './place-deal/place-deal.handler';
import { RemoveDealHandler } from './remove-deal/remove-deal.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const OTHER_ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000002');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
const DEAL = 'e0000000-0000-4000-8000-000000000001';

const at = new Date('2026-04-01T10:00:00.000Z');
const stage = (slug: string, flags: { isLost?: boolean; isDisqualification?: boolean } = {}) => ({
  id: newId(),
  name: slug,
  slug,
  stageOrder: 1,
  isDefault: false,
  isHidden: false,
  isWon: false,
  isLost: flags.isLost ?? false,
  isDisqualification: flags.isDisqualification ?? false,
  createdAt: at,
});

class FakeDeals extends DealsReadModel {
  constructor(private readonly deals: Set<string>) {
    super();
  }
  async listStages(): Promise<PipelineStageView[]> {
    return [];
  }
  async listDeals(): Promise<Page<DealView>> {
    throw new Error('not used');
  }
  async isDeal(_accountId: AccountId, contactId: string): Promise<boolean> {
    return this.deals.has(contactId);
  }
}

function setup() {
  const pipelines = new InMemoryPipelineRepository();
  const [open, lost, disqualification] = [stage('nouveau'), stage('perdu', { isLost: true }), stage('disqualifie', { isDisqualification: true })];
  const sales: Pipeline = { id: newId(), name: 'Ventes', slug: 'ventes', isDefault: true, dashboardOrder: 1, createdAt: at, stages: [open, lost, disqualification] };
  pipelines.pipelines.set(ACCOUNT, [sales]);
  const theirStage = stage('autre');
  pipelines.pipelines.set(OTHER_ACCOUNT, [{ ...sales, id: newId(), stages: [theirStage] }]);
  const dispatched: unknown[] = [];
  const commands = {
    execute: async (command: MoveContactToStageCommand | RemoveContactFromPipelineCommand): Promise<ContactStageChange> => {
      dispatched.push(command);
      const move = command instanceof MoveContactToStageCommand ? command.target : null;
      return {
        contact: {
          id: command.contactId,
          first_name: 'Julie',
          last_name: 'Tremblay',
          email: 'julie@example.com',
          phone: null,
          company: 'Tremblay inc.',
          deal_value: 1500.5,
          custom_fields: {},
          is_priority: false,
          notes: 'secret',
          system_id: newId(),
          source: 'api',
          score: 42,
          archived_at: null,
          disqualified_at: null,
          created_at: '2026-03-01T00:00:00.000Z',
          updated_at: at.toISOString(),
        },
        pipelineId: move?.pipelineId ?? null,
        stageId: move?.stageId ?? null,
        previousPipelineId: null,
        previousStageId: null,
        changed: true,
      };
    },
  } as unknown as CommandBus;
  const deals = new FakeDeals(new Set([DEAL]));
  return {
    sales,
    open,
    lost,
    disqualification,
    theirStage,
    dispatched,
    place: new PlaceDealHandler(pipelines, commands),
    move: new MoveDealHandler(pipelines, deals, commands),
    remove: new RemoveDealHandler(commands),
  };
}

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('deal handlers (public-api-v1 › Endpoints › Pipeline)', () => {
  it('POST: hands the move to the contacts context and answers the deal view (reduced contact details, stage, value, the contact score)', async () => {
    const { place, open, sales, dispatched } = setup();
    const contactId = newId();
    const deal = await place.execute(new PlaceDealCommand(ACCOUNT, contactId, open.id, ACTOR));
    expect(dispatched).toEqual([
      new MoveContactToStageCommand(ACCOUNT, contactId, { pipelineId: sales.id, stageId: open.id, acceptsDisqualifiedLeads: false }, ACTOR, { contactField: 'contact_id' }),
    ]);
    expect(deal).toEqual({
      id: contactId,
      first_name: 'Julie',
      last_name: 'Tremblay',
      email: 'julie@example.com',
      phone: null,
      company: 'Tremblay inc.',
      pipeline_id: sales.id,
      stage_id: open.id,
      deal_value: 1500.5,
      score: 42,
      created_at: '2026-03-01T00:00:00.000Z',
      updated_at: at.toISOString(),
    });
  });

  it('a lost stage and the disqualification stage accept disqualified leads; an open stage does not', async () => {
    const { place, open, lost, disqualification, dispatched } = setup();
    for (const target of [open, lost, disqualification]) await place.execute(new PlaceDealCommand(ACCOUNT, newId(), target.id, ACTOR));
    expect(dispatched.map((command) => (command as MoveContactToStageCommand).target.acceptsDisqualifiedLeads)).toEqual([false, true, true]);
  });

  it.each([
    ['missing', () => newId()],
    ["another account's", (s: ReturnType<typeof setup>) => s.theirStage.id],
  ])('POST: a %s stage gives 404 not_found (resource stage, field stage_id); nothing dispatched', async (_, stageOf) => {
    const s = setup();
    const error = await refusal(s.place.execute(new PlaceDealCommand(ACCOUNT, newId(), stageOf(s), ACTOR)));
    expect({ code: error.code, details: error.details }).toEqual({ code: 'not_found', details: { resource: 'stage', field: 'stage_id' } });
    expect(s.dispatched).toEqual([]);
  });

  it('PATCH: the deal must be a deal (requireDeal); a missing stage answers 404 stage for a deal, 404 deal otherwise', async () => {
    const s = setup();
    await s.move.execute(new MoveDealCommand(ACCOUNT, DEAL, s.lost.id, ACTOR));
    expect(s.dispatched).toEqual([
      new MoveContactToStageCommand(ACCOUNT, DEAL, { pipelineId: s.sales.id, stageId: s.lost.id, acceptsDisqualifiedLeads: true }, ACTOR, { requireDeal: true }),
    ]);
    expect((await refusal(s.move.execute(new MoveDealCommand(ACCOUNT, DEAL, s.theirStage.id, ACTOR)))).details).toEqual({ resource: 'stage', field: 'stage_id' });
    expect((await refusal(s.move.execute(new MoveDealCommand(ACCOUNT, newId(), s.theirStage.id, ACTOR)))).details).toEqual({ resource: 'deal' });
    expect(s.dispatched).toHaveLength(1);
  });

  it('DELETE: hands the removal to the contacts context and answers the deal with no stage', async () => {
    const s = setup();
    const deal = await s.remove.execute(new RemoveDealCommand(ACCOUNT, DEAL, ACTOR));
    expect(s.dispatched).toEqual([new RemoveContactFromPipelineCommand(ACCOUNT, DEAL, ACTOR)]);
    expect(deal).toMatchObject({ id: DEAL, pipeline_id: null, stage_id: null, score: 42 });
  });
});
