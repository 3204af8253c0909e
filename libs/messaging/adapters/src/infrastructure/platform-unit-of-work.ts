import { Injectable } from '@nestjs/common';
import { IntegrationEvent } from '@leadflow/shared-kernel';
import { OutboxWriter, TransactionHost } from '@leadflow/shared-platform';
import { MessagingOutbox, UnitOfWork } from '@leadflow/messaging-core';

/** {@link UnitOfWork} on shared-platform's TransactionHost: nested runs join the caller's transaction. */
@Injectable()
export class PlatformUnitOfWork extends UnitOfWork {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transactions.run(() => work());
  }
}

/** {@link MessagingOutbox} on `platform.outbox`, in the current transaction. */
@Injectable()
export class PlatformMessagingOutbox extends MessagingOutbox {
  constructor(private readonly outbox: OutboxWriter) {
    super();
  }

  append(events: readonly IntegrationEvent[]): Promise<void> {
    return this.outbox.append(events);
  }
}
