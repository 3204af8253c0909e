import { MoveDealHandler, PlaceDealHandler, RemoveDealHandler } from './commands/deals/deal.handlers';
import { ProvisionPipelinesHandler } from './commands/provision-pipelines/provision-pipelines.handler';
import { ListDealsHandler, ListPipelineStagesHandler } from './queries/deal.query-handlers';
import {
  FindPipelineHandler,
  FindStageBySlugHandler,
  FindStageHandler,
  ListPipelinesHandler,
  ListStagesHandler,
} from './queries/pipeline.query-handlers';

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
