import type { IntegrationEvent } from '@leadflow/shared-kernel';

/** One transaction around `work`; nested calls join the outer one (shared-platform's TransactionHost). */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** The transactional outbox, written through the current unit of work (shared-platform's OutboxWriter). */
export abstract class MessagingOutbox {
  abstract append(events: readonly IntegrationEvent[]): Promise<void>;
}
