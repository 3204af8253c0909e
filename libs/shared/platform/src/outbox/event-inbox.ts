import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, DomainError } from '@leadflow/shared-kernel';
import { eventLogFields, withRequestTrace } from '../logging/request-trace';
import type { IntegrationEventJob, IntegrationEventRef } from './integration-event.job';

/** What one batch did for one consumer: counts of events handled, already recorded (skipped) and rejected. */
export interface InboxBatchOutcome {
  handled: number;
  skipped: number;
  rejected: number;
}

/** Outcome stored in `platform.event_inbox.outcome`: `handled`, or `rejected:<DomainError code>`. */
export type InboxOutcome = 'handled' | `rejected:${string}`;

/**
 * Thrown after a batch in which some handler failed with something other than a `DomainError`
 * (database down, a timeout): the events handled before and after it are recorded, BullMQ retries the
 * job with backoff, and the retry skips what was recorded.
 */
export class ConsumerBatchFailed extends Error {
  constructor(
    readonly consumer: string,
    readonly failedEventIds: string[],
    override readonly cause: unknown,
  ) {
    super(`${consumer}: ${failedEventIds.length} event(s) failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * The consumers' inbox (`platform.event_inbox`, issue 12 item 2) and their way to the events (batch
 * jobs only name them, `load` reads them from `platform.outbox`). One row per (event id, consumer)
 * once the consumer has handled the event (`handled`) or refused it for good (`rejected:<code>`). It is
 * what makes a repeated delivery of an event (a relay retry, a re-enqueue by the reconciler, a retried
 * batch) a no-op, and what the `OutboxReconciler` reads to find events a consumer never recorded.
 *
 * Rows are written after the handler ran, one multi-row insert per batch: a crash between the two
 * hands the event to the handler again, so handlers stay idempotent (they are: unique keys per event).
 */
@Injectable()
export class EventInbox {
  private readonly logger = new Logger(EventInbox.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Reads the events of `events` (references) that `consumer` has not recorded yet from the outbox (one
   * statement; the same event twice in a batch counts once; an id with no row is skipped), runs `handle`
   * on each, then records the
   * handled and the rejected ones. With `parallelism` 1 (the default) the events are handled one after
   * the other in outbox order; above 1, that many at a time (for consumers whose events are independent
   * of each other, such as webhook fan-out). A `DomainError` is final: recorded as `rejected:<code>`,
   * never retried. Any other error: the others are still handled and recorded, then
   * `ConsumerBatchFailed` is thrown so the job is retried.
   */
  async consume(
    consumer: string,
    events: readonly IntegrationEventRef[],
    handle: (event: IntegrationEventJob) => Promise<unknown>,
    parallelism = 1,
  ): Promise<InboxBatchOutcome> {
    const recorded = await this.recorded(consumer, events.map((event) => event.id));
    const wanted: string[] = [];
    for (const event of events) {
      if (recorded.has(event.id)) continue;
      recorded.add(event.id); // the same event twice in one batch is handled once
      wanted.push(event.id);
    }
    const pending = await this.load(wanted);
    const results: ({ outcome: InboxOutcome } | { error: unknown })[] = new Array(pending.length);
    let next = 0;
    const runner = async () => {
      for (let index = next++; index < pending.length; index = next++) {
        const event = pending[index];
        try {
          await handle(event);
          results[index] = { outcome: 'handled' };
          this.logger.log({ consumer, type: event.type, ...eventLogFields(event) }, 'Integration event handled');
        } catch (error) {
          if (error instanceof DomainError) {
            this.logger.warn({ consumer, type: event.type, code: error.code, ...eventLogFields(event) }, 'Integration event rejected by its consumer');
            results[index] = { outcome: `rejected:${error.code}` };
          } else {
            results[index] = { error };
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(parallelism, pending.length)) }, runner));
    const outcomes: { event: IntegrationEventJob; outcome: InboxOutcome }[] = [];
    const failed: string[] = [];
    let failure: unknown;
    pending.forEach((event, index) => {
      const result = results[index];
      if ('outcome' in result) outcomes.push({ event, outcome: result.outcome });
      else {
        failed.push(event.id);
        failure ??= result.error;
      }
    });
    await this.record(consumer, outcomes);
    if (failed.length > 0) throw new ConsumerBatchFailed(consumer, failed, failure);
    const rejected = outcomes.filter((entry) => entry.outcome !== 'handled').length;
    return { handled: outcomes.length - rejected, skipped: events.length - pending.length, rejected };
  }

  /**
   * The events of `ids` as their outbox rows hold them, in the order of `ids` (one statement). An id
   * with no row (never written) is left out: there is nothing to hand to a handler.
   */
  async load(ids: readonly string[]): Promise<IntegrationEventJob[]> {
    if (ids.length === 0) return [];
    const rows: {
      id: string;
      sequence: string;
      account_id: string;
      type: string;
      payload: Record<string, unknown>;
      actor: Actor;
      occurred_at: Date;
      request_id: string | null;
    }[] = await this.db.query(
      `SELECT id, o.sequence::text AS sequence, account_id, type, payload, actor, occurred_at, request_id FROM platform.outbox o WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const requestId = row.request_id ?? null;
      return [
        {
          id,
          sequence: row.sequence,
          type: row.type,
          accountId: row.account_id,
          occurredAt: new Date(row.occurred_at).toISOString(),
          payload: row.payload,
          // Writes a consumer makes with the event's actor (the events they publish) keep the api request's id.
          actor: withRequestTrace(row.actor, requestId === null ? null : { requestId }),
          requestId,
        },
      ];
    });
  }

  /** The ids among `eventIds` that `consumer` has recorded. */
  async recorded(consumer: string, eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows: { event_id: string }[] = await this.db.query(
      `SELECT event_id FROM platform.event_inbox WHERE consumer = $1 AND event_id = ANY($2::uuid[])`,
      [consumer, eventIds],
    );
    return new Set(rows.map((row) => row.event_id));
  }

  /** Records outcomes in one statement; an existing row is kept (first outcome wins). */
  async record(consumer: string, outcomes: readonly { event: IntegrationEventJob; outcome: InboxOutcome }[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db.query(
      `INSERT INTO platform.event_inbox (event_id, consumer, account_id, outcome)
       SELECT event_id, $1, account_id, outcome FROM unnest($2::uuid[], $3::uuid[], $4::text[]) AS t (event_id, account_id, outcome)
       ON CONFLICT (account_id, event_id, consumer) DO NOTHING`,
      [consumer, outcomes.map((entry) => entry.event.id), outcomes.map((entry) => entry.event.accountId), outcomes.map((entry) => entry.outcome)],
    );
  }
}
