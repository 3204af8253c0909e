import type { Actor } from '@leadflow/shared-kernel';

/**
 * Where a write came from, carried to the worker with the events it produced (issue 17, item 4): the
 * request id of the api request (`X-Request-ID`, echoed or generated), stored in
 * `platform.outbox.request_id`, then on the worker's log lines for the event, its webhook deliveries and
 * its emails (`request_id`, `account_id`, `event_id`).
 */
export interface RequestTrace {
  requestId: string;
}

/**
 * Traces ride on the objects a request hands down (the actor `@CurrentActor()` builds for a write, which
 * every event of the write carries), in a WeakMap: nothing is added to the objects themselves (no JSON,
 * no equality changes), nothing outlives them, and no AsyncLocalStorage runs per request (on Node 20 an
 * enabled one costs every promise of the process a hook; TransactionHost keeps its own off outside
 * transactions for that reason).
 */
const TRACES = new WeakMap<object, RequestTrace>();

/** Registers `trace` on `target` (no-op without a trace) and returns `target`. */
export function withRequestTrace<T extends object>(target: T, trace: RequestTrace | null | undefined): T {
  if (trace) TRACES.set(target, trace);
  return target;
}

/** The trace registered on `target` (an actor, a principal), or null. */
export function requestTraceOf(target: object | null | undefined): RequestTrace | null {
  return (target && TRACES.get(target)) || null;
}

/**
 * The request id an event's outbox row gets: the event's own (`requestId`, set on events read back from
 * the outbox), else its actor's trace. Null for writes no api request made (the worker's own, scheduled
 * jobs). The api's writes all carry one: `@CurrentActor()` (API keys), `@CurrentOperatorActor()` (the
 * operator API and console), `@RequestActor(LEAD_ACTOR)` (the public quote page).
 */
export function requestIdOfEvent(event: { actor: Actor; requestId?: string | null }): string | null {
  return event.requestId ?? requestTraceOf(event.actor)?.requestId ?? null;
}

/** An event as the worker's log lines name it. */
export interface TracedEvent {
  /** The event's id; null when a job that predates the trace does not name it. */
  id: string | null;
  accountId: string;
  requestId: string | null;
}

/**
 * The fields every worker log line about one event (or the work it caused: a webhook delivery, an email)
 * carries: `request_id` (null when no api request made it), `account_id`, `event_id`.
 */
export function eventLogFields(event: TracedEvent): { request_id: string | null; account_id: string; event_id: string | null } {
  return { request_id: event.requestId, account_id: event.accountId, event_id: event.id };
}
