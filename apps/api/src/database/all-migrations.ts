import { accountsMigrations } from '@leadflow/accounts-adapters';
import { automationsMigrations } from '@leadflow/automations-adapters';
import { bookingsMigrations } from '@leadflow/bookings-adapters';
import { contactsMigrations } from '@leadflow/contacts-adapters';
import { eventsMigrations } from '@leadflow/events-adapters';
import { messagingMigrations } from '@leadflow/messaging-adapters';
import { pipelineMigrations } from '@leadflow/pipeline-adapters';
import { quotesMigrations } from '@leadflow/quotes-adapters';
import { platformMigrations } from '@leadflow/shared-platform';
import { usageMigrations } from '@leadflow/usage-adapters';
import { webhooksMigrations } from '@leadflow/webhooks-adapters';

/** Every migration of every schema, in the order they run (platform first, then each context). */
export const ALL_MIGRATIONS: Function[] = [...platformMigrations, ...accountsMigrations, ...contactsMigrations, ...usageMigrations, ...pipelineMigrations, ...messagingMigrations, ...quotesMigrations,
  ...bookingsMigrations, ...webhooksMigrations, ...automationsMigrations, ...eventsMigrations];
