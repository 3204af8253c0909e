import { MoveDealHandler } from './commands/move-deal/move-deal.handler';
import { PlaceDealHandler } from './commands/place-deal/place-deal.handler';
import { RemoveDealHandler } from './commands/remove-deal/remove-deal.handler';
import { ProvisionPipelinesHandler } from './commands/provision-pipelines/provision-pipelines.handler';
import { ListDealsHandler } from './queries/list-deals/list-deals.handler';
import { ListPipelineStagesHandler } from './queries/list-pipeline-stages/list-pipeline-stages.handler';
import { FindPipelineHandler } from './queries/find-pipeline/find-pipeline.handler';
import { FindStageBySlugHandler } from './queries/find-stage-by-slug/find-stage-by-slug.handler';
import { FindStageHandler } from './queries/find-stage/find-stage.handler';
import { ListPipelinesHandler } from './queries/list-pipelines/list-pipelines.handler';
import { ListStagesHandler } from './queries/list-stages/list-stages.handler';

/** Every command and query handler of the pipeline context (registered by its adapters modules). */
export const PIPELINE_HANDLERS = [
  ProvisionPipelinesHandler,
  ListPipelinesHandler,
  FindPipelineHandler,
  FindStageHandler,
  FindStageBySlugHandler,
  ListStagesHandler,
  PlaceDealHandler,
  MoveDealHandler,
  RemoveDealHandler,
  ListPipelineStagesHandler,
  ListDealsHandler,
];
