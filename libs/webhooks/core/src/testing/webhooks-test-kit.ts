import { AccountId, asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import {
  FakeContactSystems,
  FakeSecretVault,
  FakeTargetCheck,
  FakeWebhookSender,
  FixedDeliverySettings,
  InMemoryDeliveryScheduler,
  InMemoryWebhookDeliveries,
  InMemoryWebhooksStore,
  InMemoryWebhookSubscriptions,
} from './in-memory-webhooks';

/** Every fake of the webhooks handlers wired on one store and one clock (unit tests). */
export function webhooksTestKit(start = new Date('2026-11-25T10:00:00.000Z')) {
  const store = new InMemoryWebhooksStore();
  return {
    store,
    clock: new FixedClock(start),
    subscriptions: new InMemoryWebhookSubscriptions(store),
    deliveries: new InMemoryWebhookDeliveries(store),
    scheduler: new InMemoryDeliveryScheduler(),
    sender: new FakeWebhookSender(),
    vault: new FakeSecretVault(),
    targets: new FakeTargetCheck(),
    systems: new FakeContactSystems(),
    settings: new FixedDeliverySettings(),
    unitOfWork: new InMemoryUnitOfWork(store),
    journal: new InMemoryJournal(store),
    account: (): AccountId => asAccountId(newId()),
  };
}

export type WebhooksTestKit = ReturnType<typeof webhooksTestKit>;
