import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { OutboxSubscription } from './outbox-subscription';

/**
 * The registry of consumers: every `OutboxSubscription` provided anywhere in the application (by
 * `OutboxSubscriptionModule.forConsumer`), collected once. Two subscriptions with one consumer name
 * are refused at boot.
 */
@Injectable()
export class OutboxSubscriptions implements OnModuleInit {
  private collected: OutboxSubscription[] | null = null;

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  /** A fixed registry (tests, tools): these subscriptions instead of the application's providers. */
  static of(subscriptions: readonly OutboxSubscription[]): OutboxSubscriptions {
    const registry = new OutboxSubscriptions();
    registry.collected = [...subscriptions].sort((a, b) => a.consumer.localeCompare(b.consumer));
    return registry;
  }

  onModuleInit(): void {
    this.all();
  }

  /** Every subscription, sorted by consumer name. */
  all(): readonly OutboxSubscription[] {
    this.collected ??= this.collect();
    return this.collected;
  }

  /** The subscriptions that receive events of `type`. */
  consumersOf(type: string): OutboxSubscription[] {
    return this.all().filter((subscription) => subscription.accepts(type));
  }

  private collect(): OutboxSubscription[] {
    const found = new Set<OutboxSubscription>();
    for (const wrapper of this.discovery?.getProviders() ?? []) {
      if (wrapper.isDependencyTreeStatic() && wrapper.instance instanceof OutboxSubscription) found.add(wrapper.instance);
    }
    const byConsumer = new Map<string, OutboxSubscription>();
    for (const subscription of found) {
      if (byConsumer.has(subscription.consumer)) {
        throw new Error(`Outbox consumer ${subscription.consumer} is subscribed twice; merge its event types into one forConsumer()`);
      }
      byConsumer.set(subscription.consumer, subscription);
    }
    return [...byConsumer.values()].sort((a, b) => a.consumer.localeCompare(b.consumer));
  }
}
