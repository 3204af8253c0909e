import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Actor } from '@leadflow/shared-kernel';

/**
 * One integration event waiting to be relayed (`platform.outbox`). Written in the transaction of the
 * change that caused it; `relayed_at` is set by the worker's relay once the event is in its consumers' queues; the
 * consumers record it in `platform.event_inbox` once handled.
 */
@Entity({ schema: 'platform', name: 'outbox' })
@Index('outbox_pending_idx', ['sequence'], { where: 'relayed_at IS NULL' })
export class OutboxRecord {
  @PrimaryColumn('uuid')
  id: string;

  /** Monotonic order of writing (bigserial), the relay's reading order. */
  @Column({ type: 'bigint', generated: 'increment', insert: false, update: false })
  sequence: string;

  @Column('uuid')
  accountId: string;

  /** Event name, e.g. `lead_created`. */
  @Column('text')
  type: string;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @Column('jsonb')
  actor: Actor;

  @Column('timestamptz')
  occurredAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  relayedAt: Date | null;

  @Column({ type: 'int', default: 0 })
  relayAttempts: number;

  /** How often the reconciler re-enqueued the row because a consumer had not recorded it (`OutboxReconciler`). */
  @Column({ type: 'int', default: 0 })
  reconcileAttempts: number;

  /** When the reconciler last re-enqueued the row. */
  @Column({ type: 'timestamptz', nullable: true })
  reconciledAt: Date | null;

  /** Id of the api request whose write produced the event (`X-Request-ID`); null when none did (issue 17, item 4). */
  @Column({ type: 'text', nullable: true })
  requestId: string | null;
}
