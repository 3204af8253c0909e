import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { asAccountId, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { outboxParams } from '../activity/journal-statements';
import { apiKeyActor } from '../http/auth/route-policy.decorators';
import { eventLogFields, requestIdOfEvent, requestTraceOf, withRequestTrace } from './request-trace';

/** Issue 17, item 4: the request id rides on the write's actor to the outbox row. */
describe('request trace', () => {
  const principal: ApiKeyPrincipal = {
    keyId: 'key-1',
    keyName: 'Formulaire du site',
    keyPrefix: 'lf_live_ab',
    accountId: asAccountId(newId()),
    accountName: 'Rénovations Lavoie',
    scopes: ['leads:capture'],
    features: ['public_api'],
    perHour: 1000,
    eventsPerMinute: 60,
    apiTermsAccepted: true,
    createdAt: new Date('2026-11-01T00:00:00Z'),
    expiresAt: null,
  };
  const event = (actor = SYSTEM_ACTOR, requestId?: string | null) => ({
    id: newId(),
    type: 'lead_created',
    accountId: principal.accountId,
    occurredAt: new Date('2026-11-25T01:00:00Z'),
    payload: {},
    actor,
    ...(requestId === undefined ? {} : { requestId }),
  });

  /** What `@CurrentActor()` builds for a write: the key's actor, registered with the request's id. */
  const requestActor = (requestId: string) => withRequestTrace(apiKeyActor(principal), { requestId });

  it("the request's actor carries the trace, and its JSON is the spec's actor only; the shared principal and plain actors carry none", () => {
    const actor = requestActor('abc');
    expect(requestTraceOf(actor)).toEqual({ requestId: 'abc' });
    expect(JSON.parse(JSON.stringify(actor))).toEqual({ type: 'api_key', id: 'key-1', name: 'Formulaire du site', via: 'api_key' });
    expect(requestTraceOf(principal)).toBeNull();
    expect(requestTraceOf(apiKeyActor(principal))).toBeNull();
    expect(requestTraceOf(SYSTEM_ACTOR)).toBeNull();
  });

  it("an event's request id is its own (read back from the outbox), else its actor's trace, else null", () => {
    expect(requestIdOfEvent(event(requestActor('abc')))).toBe('abc');
    expect(requestIdOfEvent(event(SYSTEM_ACTOR, 'from-outbox'))).toBe('from-outbox');
    expect(requestIdOfEvent(event(SYSTEM_ACTOR))).toBeNull();
    expect(requestIdOfEvent(event(withRequestTrace({ ...SYSTEM_ACTOR }, null)))).toBeNull();
  });

  it('the outbox insert gets the request ids in its one JSON parameter, in event order', () => {
    const params = outboxParams([event(requestActor('abc')), event(SYSTEM_ACTOR)]);
    expect(params).toHaveLength(1);
    const rows = JSON.parse(params[0] as string) as { request_id: string | null }[];
    expect(rows.map((row) => row.request_id)).toEqual(['abc', null]);
  });

  it('worker log lines name request_id, account_id and event_id', () => {
    expect(eventLogFields({ id: 'e-1', accountId: 'a-1', requestId: 'abc' })).toEqual({ request_id: 'abc', account_id: 'a-1', event_id: 'e-1' });
  });
});
