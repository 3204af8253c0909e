import { Injectable } from '@nestjs/common';
import { IntegrationEvent } from '@leadflow/shared-kernel';
import { OutboxWriter, TransactionHost } from '@leadflow/shared-platform';
import { AutomationOutbox, AutomationUnitOfWork } from '@leadflow/automations-core';

/** {@link AutomationUnitOfWork} on shared-platform's TransactionHost (nested runs join the outer transaction). */
@Injectable()
export class PlatformAutomationUnitOfWork extends AutomationUnitOfWork {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transactions.run(() => work());
  }
}

/** {@link AutomationOutbox} on `platform.outbox`, in the current transaction. */
@Injectable()
export class PlatformAutomationOutbox extends AutomationOutbox {
  constructor(private readonly outbox: OutboxWriter) {
    super();
  }

  append(events: readonly IntegrationEvent[]): Promise<void> {
    return this.outbox.append(events);
  }
}
