/**
 * An event written to the transactional outbox in the same transaction as the change that caused
 * it, then relayed by the worker. `type` is the public catalog name where one exists
 * (`lead_created`, `lead_updated`…); `payload` is JSON-safe.
 */
export interface IntegrationEvent<P extends Record<string, unknown> = Record<string, unknown>> {
  readonly id: string;
  readonly type: string;
  readonly accountId: string;
  readonly occurredAt: Date;
  readonly payload: P;
  /** Who acted: `{ type, id, name, via }` (public-api-v1 › Outbound webhooks). */
  readonly actor: Actor;
  /**
   * Id of the api request whose write produced the event (`X-Request-ID`), as the worker reads it back
   * from the outbox; null or absent when none did. For log lines only: never in a payload (issue 17, item 4).
   */
  readonly requestId?: string | null;
}

export interface Actor {
  type: 'api_key' | 'member' | 'system' | 'automation' | 'integration' | 'operator' | null;
  id: string | null;
  name: string | null;
  via: 'api_key' | 'ai_assistant' | null;
}

export const SYSTEM_ACTOR: Actor = { type: null, id: null, name: null, via: null };
