import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, IdempotencyKeyPurger, OutboxRelayModule, PlatformModule, QueueModule, WorkerLeasesModule } from '@leadflow/shared-platform';
import { AccountsJobsModule } from '@leadflow/accounts-adapters';
import { AutomationsJobsModule } from '@leadflow/automations-adapters';
import { BookingsJobsModule } from '@leadflow/bookings-adapters';
import { ContactsJobsModule } from '@leadflow/contacts-adapters';
import { EventsJobsModule } from '@leadflow/events-adapters';
import { MessagingJobsModule } from '@leadflow/messaging-adapters';
import { QuotesJobsModule } from '@leadflow/quotes-adapters';
import { UsageJobsModule } from '@leadflow/usage-adapters';
import { WebhooksJobsModule } from '@leadflow/webhooks-adapters';
import { WorkerHealthModule } from './worker-health';
import { WorkerMetricsModule } from './worker-metrics';
import { WorkerLifecycleModule } from './worker-lifecycle.module';

export interface WorkerModuleOptions {
  config: AppConfig;
  clock?: Clock;
}

/** Composition root of the worker app: platform, BullMQ, the outbox relay, every context's jobs module, the probes (WORKER_HEALTH_PORT), the metrics (WORKER_METRICS_PORT), the purge of expired Idempotency-Keys, the worker's heartbeat and lease takeover (WorkerLeasesModule). */
@Module({})
export class WorkerModule {
  static forRoot(options: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [PlatformModule.forRoot(options), QueueModule.forRoot(), WorkerLeasesModule.forRoot(), OutboxRelayModule.forRoot(), WorkerLifecycleModule, AccountsJobsModule, UsageJobsModule, ContactsJobsModule, MessagingJobsModule, QuotesJobsModule,
        BookingsJobsModule, WebhooksJobsModule, AutomationsJobsModule, EventsJobsModule, WorkerHealthModule, WorkerMetricsModule],
      providers: [IdempotencyKeyPurger],
    };
  }
}
