import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IntegrationEventsFanOut } from './integration-events.processor';
import { OUTBOX_RELAY_SETTINGS, OutboxRelay, OutboxRelaySettings } from './outbox-relay';
import { OutboxSubscriptions } from './outbox-subscriptions';

/**
 * The worker's side of the transactional outbox: the polling `OutboxRelay` (outbox → the
 * `integration-events` queue) and the fan-out processor (→ each subscribed consumer's queue).
 * Needs `PlatformModule` and `QueueModule`. The relay starts when the application boots and stops
 * first on shutdown, before processors drain and connections close.
 */
@Module({})
export class OutboxRelayModule {
  static forRoot(settings: Partial<OutboxRelaySettings> = {}): DynamicModule {
    return {
      module: OutboxRelayModule,
      imports: [DiscoveryModule],
      providers: [{ provide: OUTBOX_RELAY_SETTINGS, useValue: settings }, OutboxRelay, OutboxSubscriptions, IntegrationEventsFanOut],
      exports: [OutboxRelay, OutboxSubscriptions],
    };
  }
}
