import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
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
 * export class WebhookEventsProcessor extends WorkerHost {
 *   async process(job: Job<IntegrationEventJob>) { … record (event id, consumer) in an inbox, then act … }
 * }
 * ```
 *
 * The worker's fan-out adds each matching event to the queue `integration-events.<consumer>` with
 * job id `<eventId>.<consumer>` (idempotent). The queue is registered here, so the consumer may also
 * `@InjectQueue(consumerQueueName(...))` it.
 */
@Module({})
export class OutboxSubscriptionModule {
  static forConsumer(options: OutboxSubscriptionOptions): DynamicModule {
    const subscription = new OutboxSubscription(options);
    const queue = BullModule.registerQueue({ name: consumerQueueName(subscription.consumer) });
    return {
      module: OutboxSubscriptionModule,
      imports: [queue],
      providers: [{ provide: `OutboxSubscription:${subscription.consumer}`, useValue: subscription }],
      exports: [queue],
    };
  }
}
