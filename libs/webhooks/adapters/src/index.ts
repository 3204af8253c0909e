import { WebhooksInit1795335361884 } from './infrastructure/persistence/migrations/1795335361884-webhooks-init';

export * from './webhooks-http.module';
export * from './webhooks-jobs.module';

/** Migrations of the `webhooks` schema, in order. */
export const webhooksMigrations = [WebhooksInit1795335361884];
