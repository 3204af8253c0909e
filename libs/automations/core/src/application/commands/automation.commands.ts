import { Command, Query } from '@nestjs/cqrs';
import type { AccountId, Actor, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { AutomationView, ExecutionView, TriggeredExecutionView } from '../views';

/**
 * `POST /v1/automations/{id}/trigger` (public-api-v1 › Endpoints › Automations): creates a `pending`
 * execution with trigger_type `manual_api`. See TriggerAutomationHandler for the checks and codes.
 */
export class TriggerAutomationCommand extends Command<TriggeredExecutionView> {
  constructor(
    readonly accountId: AccountId,
    readonly automationId: string,
    readonly contactId: string,
    readonly eventData: Record<string, unknown>,
    readonly actor: Actor,
  ) {
    super();
  }
}

/**
 * Worker: enrols a contact from another context's outbox event (`contact_created`, `stage_changed`)
 * in every matching active, published automation; idempotent per (event id, automation).
 */
export class EnrolFromIntegrationEventCommand extends Command<{ executionIds: string[] }> {
  constructor(
    readonly accountId: AccountId,
    readonly eventId: string,
    readonly eventType: string,
    readonly payload: Record<string, unknown>,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Worker: runs (or resumes) one execution; a no-op when another run holds it or it is finished. */
export class RunExecutionCommand extends Command<{ status: string }> {
  constructor(
    readonly accountId: string,
    readonly executionId: string,
  ) {
    super();
  }
}

/** Worker: hands stale executions (expired lease, overdue wait, forgotten pending) back to the queue. */
export class SweepExecutionsCommand extends Command<{ requeued: number }> {}

/** `GET /v1/automations`: archived excluded, `status` filter (`active`/`inactive`), `created_at DESC, id DESC`. */
export class ListAutomationsQuery extends Query<Page<AutomationView>> {
  constructor(
    readonly accountId: AccountId,
    readonly isActive: boolean | null,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}

/** `GET /v1/automations/{id}/history`: executions `created_at DESC, id DESC`; 404 `not_found` for a missing or archived automation. */
export class GetAutomationHistoryQuery extends Query<Page<ExecutionView>> {
  constructor(
    readonly accountId: AccountId,
    readonly automationId: string,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
