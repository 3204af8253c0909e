import { asAccountId, FixedClock } from '@leadflow/shared-kernel';
import { ProvisionPipelinesCommand } from '@leadflow/pipeline-contracts';
import { InMemoryPipelineRepository } from '../../../testing/in-memory-pipeline.repository';
import { ProvisionPipelinesHandler } from './provision-pipelines.handler';

describe('ProvisionPipelinesHandler', () => {
  const accountId = asAccountId('0b8f1c2e-5a8e-4b8e-9c77-5d1c0a9e2f10');
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));

  it('answers the ids keyed by pipeline slug and stage slug, and writes nothing for an empty list', async () => {
    const repository = new InMemoryPipelineRepository();
    const handler = new ProvisionPipelinesHandler(repository, clock);
    expect(await handler.execute(new ProvisionPipelinesCommand(accountId, []))).toEqual({});
    expect(repository.pipelines.size).toBe(0);

    const result = await handler.execute(
      new ProvisionPipelinesCommand(accountId, [{ name: 'Ventes', slug: 'ventes', stages: [{ name: 'Nouveau', slug: 'nouveau' }, { name: 'Gagné', slug: 'gagne', isWon: true }] }]),
    );
    const [stored] = repository.pipelines.get(accountId)!;
    expect(result).toEqual({ ventes: { id: stored.id, stages: { nouveau: stored.stages[0].id, gagne: stored.stages[1].id } } });
  });

  it('writes nothing when a rule is broken', async () => {
    const repository = new InMemoryPipelineRepository();
    const handler = new ProvisionPipelinesHandler(repository, clock);
    const spec = { name: 'A', slug: 'a', stages: [{ name: 'x', slug: 'x' }] };
    await expect(handler.execute(new ProvisionPipelinesCommand(accountId, [spec, spec]))).rejects.toMatchObject({ code: 'validation_error' });
    expect(repository.pipelines.size).toBe(0);
  });
});
