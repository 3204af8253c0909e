import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ProvisionedPipelines, ProvisionPipelinesCommand } from '@leadflow/pipeline-contracts';
import { provisionPipelines } from '../../../domain/pipeline.aggregate';
import { PipelineRepository } from '../../ports/pipeline.repository.port';

/** Operator blueprint `pipelines`: validates every rule, then writes pipelines and stages (caller's transaction). */
@CommandHandler(ProvisionPipelinesCommand)
export class ProvisionPipelinesHandler implements ICommandHandler<ProvisionPipelinesCommand> {
  constructor(
    private readonly repository: PipelineRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, pipelines: specs }: ProvisionPipelinesCommand): Promise<ProvisionedPipelines> {
    if (specs.length === 0) return {};
    const pipelines = provisionPipelines(specs, await this.repository.listExisting(accountId), this.clock.now());
    await this.repository.insert(accountId, pipelines);
    return Object.fromEntries(
      pipelines.map((pipeline) => [
        pipeline.slug,
        { id: pipeline.id, stages: Object.fromEntries(pipeline.stages.map((stage) => [stage.slug, stage.id])) },
      ]),
    );
  }
}
