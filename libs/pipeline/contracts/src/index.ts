/**
 * Public API of the pipeline context: published commands and queries and their result types.
 * Nothing else crosses the boundary.
 */
export * from './deal.views';
export * from './pipeline-blueprint';
export * from './pipeline.queries';
export * from './pipeline.views';
export * from './provision-pipelines.command';
