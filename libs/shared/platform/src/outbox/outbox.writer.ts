import { Injectable } from '@nestjs/common';
import { IntegrationEvent } from '@leadflow/shared-kernel';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionHost } from '../database/transaction-host';
import { OutboxRecord } from './outbox.record';

/**
 * Appends integration events to `platform.outbox` through the current unit of work, so they are
 * committed with the business rows (ARCHITECTURE › Writes, events and the worker). Call it inside
 * `TransactionHost.run`; outside one it writes in its own autocommit statement.
 */
@Injectable()
export class OutboxWriter {
  constructor(private readonly transactions: TransactionHost) {}

  async append(events: readonly IntegrationEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.transactions.manager.insert(
      OutboxRecord,
      events.map((event) => ({
        id: event.id,
        accountId: event.accountId,
        type: event.type,
        payload: event.payload,
        actor: event.actor,
        occurredAt: event.occurredAt,
        relayedAt: null,
        relayAttempts: 0,
      })) as QueryDeepPartialEntity<OutboxRecord>[],
    );
  }
}
