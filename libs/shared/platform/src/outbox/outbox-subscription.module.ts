import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { EventInbox } from './event-inbox';
import { consumerQueueName } from './integration-event.job';
import { OutboxSubscription, OutboxSubscriptionOptions } from './outbox-subscription';

/**
 * How a context's jobs module subscribes to integration events:
 *
 * ```ts
 * @Module({ imports: [OutboxSubscriptionModule.forConsumer({ consumer: 'webhooks', events: ['lead_created'] })],
 *           providers: [WebhookEventsProcessor] })
 * export class WebhooksJobsModule {}
 *
 * @Processor(consumerQueueName('webhooks'))
 * export class WebhookEventsProcessor extends IntegrationEventConsumer {
 *   protected async handle(event: IntegrationEventJob) { … idempotent work for one event … }
 * }
 * ```
 *
 * The relay adds the matching events, a batch per pass, to the queue `integration-events.<consumer>`;
 * `IntegrationEventConsumer` records each handled event in `platform.event_inbox`. The queue and the
 * `EventInbox` are provided here, so the consumer may also `@InjectQueue(consumerQueueName(...))`.
 */
@Module({})
export class OutboxSubscriptionModule {
  static forConsumer(options: OutboxSubscriptionOptions): DynamicModule {
    const subscription = new OutboxSubscription(options);
    const queue = BullModule.registerQueue({ name: consumerQueueName(subscription.consumer) });
    return {
      module: OutboxSubscriptionModule,
      imports: [queue],
      providers: [{ provide: `OutboxSubscription:${subscription.consumer}`, useValue: subscription }, EventInbox],
      exports: [queue, EventInbox],
    };
  }
}
