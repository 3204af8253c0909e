import { FixedClock, newId } from '@leadflow/shared-kernel';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { automationsList } from './support/automations-fixtures';
import { bookingsBlueprint, JULIE } from './support/bookings-fixtures';
import { createContact, createTag, expectStatus } from './support/contacts-fixtures';
import { EXAMPLE_EVENTS } from './support/events-fixtures';
import { SAMPLE_CONVERSATIONS } from './support/messaging-fixtures';
import { fillPath, OpenApiOperation, openApiOperations } from './support/openapi-routes';
import { placeDeal } from './support/pipeline-fixtures';
import { createQuote, QUOTE_DEFAULTS, SENDABLE } from './support/quotes-fixtures';
import { PUBLIC_TARGET } from './support/webhooks-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * Tenant isolation generated from the OpenAPI description (public-api-v1 › Authentication: "another
 * account's resource behaves exactly as a missing one"). Two accounts A and B provisioned from the same
 * blueprint, each with the same fixtures (contact, tag, quote, booking, deal, webhook; the blueprint's
 * automations, conversations, calendars, hosts, keys). For every operation with a path id, every id the
 * call refers to (path ids and ids inside the body) is, in turn, A's resource or a random missing UUID, the
 * others being B's own; B's answer must be identical in both cases (status, `code`, `details`). For every
 * list operation, B's answer never contains any of A's ids.
 */
type Kind = 'contact' | 'tag' | 'quote' | 'booking' | 'deal' | 'automation' | 'conversation' | 'webhook' | 'apiKey' | 'calendar' | 'host' | 'stage' | 'registration' | 'submission';
type Ids = Partial<Record<Kind, string>>;

/** The resource kind of a path parameter (the matrix fails on an operation it cannot map, so a new route is never skipped silently). */
function kindOf(path: string, param: string): Kind | 'account' {
  if (param === 'account_id') return 'account';
  const byParam: Record<string, Kind> = { tag_id: 'tag', contact_id: 'contact', quote_id: 'quote', booking_id: 'booking', calendar_id: 'calendar', key_id: 'apiKey', registration_id: 'registration' };
  if (byParam[param]) return byParam[param];
  const byPrefix: [string, Kind][] = [
    ['/v1/contacts/', 'contact'],
    ['/v1/quotes/', 'quote'],
    ['/v1/bookings/', 'booking'],
    ['/v1/pipeline/deals/', 'deal'],
    ['/v1/automations/', 'automation'],
    ['/v1/conversations/', 'conversation'],
    ['/v1/webhooks/', 'webhook'],
    ['/v1/presuasion/submissions/', 'submission'],
  ];
  const found = byPrefix.find(([prefix]) => path.startsWith(prefix));
  if (!found) throw new Error(`tenant matrix: no resource kind for {${param}} of ${path}`);
  return found[1];
}

/** A valid body of each id-bearing operation; ids in it are slots (filled with the caller's own ids, or A's / a random one). */
const BODIES: Record<string, { slots: Kind[]; body: (ids: Ids) => unknown }> = {
  'PATCH /v1/contacts/{id}': { slots: [], body: () => ({ company: 'Matrice' }) },
  'POST /v1/contacts/{id}/tags': { slots: ['tag'], body: (ids) => ({ tag_ids: [ids.tag] }) },
  'POST /v1/contacts/{id}/notes': { slots: [], body: () => ({ body: 'Note' }) },
  'POST /v1/contacts/{id}/merge': { slots: [], body: () => ({ into: '$second', dry_run: true }) },
  'PATCH /v1/quotes/{id}': { slots: [], body: () => ({ internal_notes: 'Matrice' }) },
  'PATCH /v1/pipeline/deals/{id}': { slots: ['stage'], body: (ids) => ({ stage_id: ids.stage }) },
  'POST /v1/automations/{id}/trigger': { slots: ['contact'], body: (ids) => ({ contact_id: ids.contact }) },
  'PATCH /admin/v1/accounts/{account_id}/event-registrations/{registration_id}': { slots: [], body: () => ({ opted_out: true }) },
  'POST /admin/v1/accounts/{account_id}/contacts/{contact_id}/merge': { slots: [], body: () => ({ into_contact_id: '$second' }) },
  'POST /admin/v1/accounts/{account_id}/quotes/{quote_id}/lead-actions': { slots: [], body: () => ({ action: 'view' }) },
  'POST /admin/v1/accounts/{account_id}/bookings/{booking_id}/outcome': { slots: [], body: () => ({ status: 'completed' }) },
  'POST /admin/v1/accounts/{account_id}/calendars/{calendar_id}/busy-times': {
    slots: ['host'],
    body: (ids) => ({ host_id: ids.host, kind: 'blocked_time', start_datetime: '2027-04-05T14:00:00Z', end_datetime: '2027-04-05T15:00:00Z' }),
  },
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function uuidsIn(value: unknown): Set<string> {
  return new Set((JSON.stringify(value ?? null).match(UUID) ?? []).map((id) => id.toLowerCase()));
}

describe('tenant matrix: another account’s id answers exactly like a missing one (public-api-v1 › Authentication)', () => {
  let api: TestApi;
  const accounts: Record<'a' | 'b', { account: ProvisionedAccount; token: string; ids: Ids; second: string }> = {} as any;
  const operations = openApiOperations();
  const withId = operations.filter((operation) => operation.pathParams.some((param) => param !== 'account_id'));
  const lists = operations.filter((operation) => operation.method === 'GET' && operation.pathParams.every((param) => param === 'account_id'));
  /** `METHOD path {slot}` → the answer both calls gave. */
  const compared = new Map<string, string>();
  const withoutFixture = new Set<string>();

  async function fixtures(name: string): Promise<{ account: ProvisionedAccount; token: string; ids: Ids; second: string }> {
    const account = await api.provision(
      bookingsBlueprint({
        name,
        quote_defaults: QUOTE_DEFAULTS,
        automations: automationsList(),
        conversations: SAMPLE_CONVERSATIONS,
        events: EXAMPLE_EVENTS,
        api_keys: [
          { name: 'full', preset: 'full_integration', per_hour: 1000000 },
          { name: 'spare', preset: 'full_integration', per_hour: 1000000 },
        ],
      }),
    );
    const token = account.api_keys.full.key;
    const contact = await createContact(api, token, { first_name: 'Nadia', email: `nadia.${newId().slice(-8)}@example.com` });
    const second = await createContact(api, token, { first_name: 'Luc', email: `luc.${newId().slice(-8)}@example.com` });
    const tag = await createTag(api, token, { name: 'Matrice' });
    const quote = await createQuote(api, token, SENDABLE);
    const calendars = account.calendars as Record<string, string>;
    const booking = expectStatus(
      await api.request({ method: 'POST', path: '/v1/bookings', token, body: { event_type_id: calendars.Consultation, start_datetime: '2027-03-02T15:00:00Z', contact_id: contact.id, form_responses: { adresse: { value: '12 rue Principale' } } } }),
      201,
    ).body.data;
    const stageIds = account.pipelines!.ventes.stages;
    const deal = await placeDeal(api, token, second.id, stageIds.nouveau);
    const webhook = expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url: PUBLIC_TARGET, events: '*' } }), 201).body.data;
    const registration = expectStatus(await api.request({ method: 'POST', path: '/v1/event-registrations', token, body: { contact_id: contact.id, event_slug: 'salon-2027' } }), 201).body.data;
    const submission = expectStatus(
      await api.request({ method: 'POST', path: '/v1/presuasion/submissions', token, body: { tool: { slug: 'quiz', name: 'Quiz' }, answers: [{ question: 'Projet ?', answer: 'Toiture' }], person: { email: contact.email } } }),
      201,
    ).body.data;
    const automations = account.automations as Record<string, string>;
    const conversations = account.conversations as string[];
    return {
      account,
      token,
      second: second.id,
      ids: {
        contact: contact.id,
        tag: tag.id,
        quote: quote.id,
        booking: booking.id,
        deal: deal.id,
        automation: automations.Manuelle,
        conversation: conversations[0],
        webhook: webhook.id,
        apiKey: account.api_keys.spare.id,
        calendar: calendars.Consultation,
        host: account.team_members[JULIE],
        stage: stageIds.gagne,
        registration: registration.id,
        submission: submission.id,
      },
    };
  }

  beforeAll(async () => {
    api = await TestApi.start({}, new FixedClock(new Date('2027-03-01T12:00:00.000Z')));
    accounts.a = await fixtures('Compte A');
    accounts.b = await fixtures('Compte B');
  });
  afterAll(async () => {
    console.log(
      `tenant matrix: ${compared.size} comparisons over ${withId.length} operations with an id, ${lists.length} lists; ` +
        `without a fixture (random vs random only): ${[...withoutFixture].join(', ') || 'none'}\n` +
        [...compared].map(([route, outcome]) => `  ${route} → ${outcome}`).join('\n'),
    );
    await api?.close();
  });

  /** Required query values of the non-paged GETs (the rest need none). */
  const QUERIES: Record<string, Record<string, string>> = { '/v1/usage': { from: '2027-02-28T00:00:00Z', to: '2027-03-02T00:00:00Z' } };

  function call(operation: OpenApiOperation, slots: Partial<Record<Kind, string>>): Promise<TestResponse> {
    const b = accounts.b;
    const values: Record<string, string> = {};
    for (const param of operation.pathParams) {
      const kind = kindOf(operation.path, param);
      values[param] = kind === 'account' ? b.account.account_id : slots[kind]!;
    }
    const key = `${operation.method} ${operation.path}`;
    const template = BODIES[key];
    let body = template?.body(slots);
    if (body && JSON.stringify(body).includes('$second')) body = JSON.parse(JSON.stringify(body).replace('$second', b.second));
    return api.request({
      method: operation.method,
      path: fillPath(operation.path, values),
      token: operation.admin ? TEST_ADMIN_TOKEN : b.token,
      body: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : (body ?? (operation.hasBody ? {} : undefined)),
      query: QUERIES[operation.path],
      remoteAddress: `10.9.${compared.size % 250}.${(compared.size >> 8) % 250}`,
    });
  }

  /** Status, `code` and `details`, the id the caller sent being echoed as `<sent id>` (echoing the client's own input leaks nothing). */
  const answer = (response: TestResponse, sent: string) => ({
    status: response.status,
    code: response.body?.code,
    details: JSON.parse(JSON.stringify(response.body?.details ?? null).split(sent).join('<sent id>')),
  });

  it('derives the operations with an id and the lists from the OpenAPI description', () => {
    expect(withId.length).toBeGreaterThan(25);
    expect(lists.map((operation) => operation.path)).toContain('/v1/contacts');
  });

  it.each(withId.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))('%s: B with A’s id answers exactly as with a missing id', async (key, operation) => {
    const a = accounts.a.ids;
    const b = accounts.b.ids;
    const pathKinds = operation.pathParams.map((param) => kindOf(operation.path, param)).filter((kind): kind is Kind => kind !== 'account');
    const slotKinds = [...new Set([...pathKinds, ...(BODIES[key]?.slots ?? [])])];
    // Each slot in turn is A's id or a random one, the others B's own (so only that id decides the answer).
    for (const slot of slotKinds) {
      const foreign = a[slot];
      const own: Ids = Object.fromEntries(slotKinds.map((kind) => [kind, b[kind] ?? newId()]));
      const random = newId();
      const missing = await call(operation, { ...own, [slot]: random });
      expect(missing.status).toBeGreaterThanOrEqual(400);
      expect(missing.status).toBeLessThan(500);
      if (foreign === undefined) {
        withoutFixture.add(`${key} {${slot}}`);
        const otherRandom = newId();
        const other = await call(operation, { ...own, [slot]: otherRandom });
        expect(answer(other, otherRandom)).toEqual(answer(missing, random));
        continue;
      }
      const leaked = await call(operation, { ...own, [slot]: foreign });
      expect({ slot, ...answer(leaked, foreign) }).toEqual({ slot, ...answer(missing, random) });
      expect(JSON.stringify(leaked.body)).not.toContain(accounts.a.account.account_id);
      compared.set(`${key} {${slot}}`, `${missing.status} ${missing.body?.code}${missing.status === 404 ? "" : ` ${JSON.stringify(missing.body?.details).slice(0, 160)}`}`);
    }
    // Every path id was exercised.
    for (const kind of pathKinds) expect(compared.has(`${key} {${kind}}`) || withoutFixture.has(`${key} {${kind}}`)).toBe(true);
  });

  it('A’s resources are still A’s after B’s calls (none was changed through B)', async () => {
    const a = accounts.a;
    for (const path of [`/v1/contacts/${a.ids.contact}`, `/v1/quotes/${a.ids.quote}`, `/v1/conversations/${a.ids.conversation}`]) {
      expect((await api.request({ path, token: a.token })).status).toBe(200);
    }
    const contact = (await api.request({ path: `/v1/contacts/${a.ids.contact}`, token: a.token })).body.data;
    expect(contact.company ?? null).not.toBe('Matrice');
    const webhooks = (await api.request({ path: '/v1/webhooks', token: a.token })).body.data.map((webhook: any) => webhook.id);
    expect(webhooks).toContain(a.ids.webhook);
  });

  it.each(lists.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))('%s: B’s list never contains A’s ids', async (_, operation) => {
    const a = accounts.a;
    const aIds = new Set([...uuidsIn(a.account), ...Object.values(a.ids).map((id) => id.toLowerCase()), a.second.toLowerCase()]);
    for (const id of uuidsIn(accounts.b.account)) aIds.delete(id); // ids shared by design (none expected) would not be A's
    const response = await call(operation, {});
    expect(response.status).toBe(200);
    const leaked = [...uuidsIn(response.body)].filter((id) => aIds.has(id));
    expect(leaked).toEqual([]);
  });

  it('A’s own lists do show A’s resources (the list check above is not vacuous)', async () => {
    const a = accounts.a;
    const seen = new Set<string>();
    for (const operation of lists) {
      const path = fillPath(operation.path, { account_id: a.account.account_id });
      const response = await api.request({ path, token: operation.admin ? TEST_ADMIN_TOKEN : a.token, query: QUERIES[operation.path], remoteAddress: '10.8.0.1' });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      for (const id of uuidsIn(response.body)) seen.add(id);
    }
    for (const kind of ['contact', 'tag', 'quote', 'booking', 'deal', 'automation', 'conversation', 'webhook', 'submission'] as Kind[]) {
      expect({ kind, seen: seen.has(a.ids[kind]!.toLowerCase()) }).toEqual({ kind, seen: true });
    }
  });
});
