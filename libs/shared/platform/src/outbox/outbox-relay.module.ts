import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventInbox } from './event-inbox';
import { OUTBOX_RECONCILER_SETTINGS, OutboxReconciler, OutboxReconcilerSettings } from './outbox-reconciler';
import { OUTBOX_RELAY_SETTINGS, OutboxRelay, OutboxRelaySettings } from './outbox-relay';
import { OutboxSubscriptions } from './outbox-subscriptions';

/**
 * The worker's side of the transactional outbox: the polling `OutboxRelay` (outbox → one batch job per
 * subscribed consumer's queue) and the `OutboxReconciler` (re-enqueues events a consumer never
 * recorded in its inbox). Needs `PlatformModule` and `QueueModule`. Both start when the application
 * boots and stop first on shutdown, before processors drain and connections close.
 */
@Module({})
export class OutboxRelayModule {
  static forRoot(settings: Partial<OutboxRelaySettings> = {}, reconciler: Partial<OutboxReconcilerSettings> = {}): DynamicModule {
    return {
      module: OutboxRelayModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: OUTBOX_RELAY_SETTINGS, useValue: settings },
        { provide: OUTBOX_RECONCILER_SETTINGS, useValue: reconciler },
        OutboxRelay,
        OutboxReconciler,
        OutboxSubscriptions,
        EventInbox,
      ],
      exports: [OutboxRelay, OutboxReconciler, OutboxSubscriptions, EventInbox],
    };
  }
}
