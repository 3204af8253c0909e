/**
 * Public API of the webhooks context: integration events (`<thing>-<happened>.v1.ts`), published queries
 * and commands (`*.query.ts`, `*.command.ts`) and their result types. Nothing else crosses the boundary.
 */
export * from './webhook-event-catalog';
export * from './webhook-deliveries.query';
export * from './redeliver-webhook-delivery.command';
export * from './webhook-subscriptions.query';
export * from './sandbox';
