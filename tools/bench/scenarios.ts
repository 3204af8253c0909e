import type autocannon from 'autocannon';

/** Which server a scenario drives: the running api, or the harness's own bare Fastify + pg server. */
export type BenchTarget = 'api' | 'baseline';

/**
 * One measured load: the same request shape sent by every connection for the configured duration.
 * `probe` is sent once, alone, before the load: a 404 there means the route does not exist (yet) and the
 * scenario is reported as skipped; for a replay it is also the first capture, so the load only replays.
 */
export interface Scenario {
  name: string;
  label: string;
  target: BenchTarget;
  method: 'GET' | 'POST';
  path: string;
  /** Name of the baseline scenario its requests per second are compared to (api scenarios only). */
  baseline: string | null;
  probe: { body: string | null };
  /** The request list autocannon loops over (headers are added by the runner). */
  requests: autocannon.Request[];
  /** Contacts each request writes, when more than one (the batch upsert): the report adds contacts per second. */
  itemsPerRequest?: number;
}

const FIRST_NAMES = ['Émilie', 'François', 'Gaëlle', 'Jérôme', 'Noémie', 'Stéphane', 'Chloé', 'Benoît'];
const LAST_NAMES = ['Côté', 'Bélanger', 'Lévesque', 'Gagnon', 'Tremblay', 'Pelletier', 'Boucher', 'Ouellet'];
/** Area codes of Quebec and Ontario: with exchanges 200–999 and 10 000 lines, 112 million numbers. */
const AREA_CODES = ['514', '438', '450', '579', '819', '873', '418', '581', '367', '613', '343', '416', '647', '437'];

/** A person that no earlier request of this run (nor, with near certainty, of an earlier run) used. */
export interface BenchPerson {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

/**
 * Hands out unique people: the email carries the run tag and a sequence number; the phone walks the
 * North-American numbering space from a random point, so two runs against the same database (the
 * api's contacts are kept) practically never meet on a phone either.
 */
export class PersonFactory {
  private sequence = 0;
  private readonly phoneOffset: number;

  constructor(private readonly runTag: string) {
    this.phoneOffset = Math.floor(Math.random() * AREA_CODES.length * 800 * 10_000);
  }

  next(): BenchPerson {
    const n = this.sequence++;
    const slot = (this.phoneOffset + n) % (AREA_CODES.length * 800 * 10_000);
    const line = String(slot % 10_000).padStart(4, '0');
    const exchange = 200 + (Math.floor(slot / 10_000) % 800);
    const area = AREA_CODES[Math.floor(slot / 8_000_000)];
    return {
      first_name: FIRST_NAMES[n % FIRST_NAMES.length],
      last_name: LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length],
      email: `bench.${this.runTag}.${n}@bench.leadflow.test`,
      phone: `+1 ${area}-${exchange}-${line}`,
    };
  }
}

/** A lead capture body as a funnel sends it (public-api-v1 › Lead capture input): phone and consent required. */
export function leadCaptureBody(person: BenchPerson): string {
  return JSON.stringify({ ...person, sms_consent: true, source_label: 'bench' });
}

/** A `POST /v1/contacts` body (public-api-v1 › Contacts): email or phone required. */
export function contactCreateBody(person: BenchPerson): string {
  return JSON.stringify({ ...person, company: 'Banc d’essai inc.' });
}

/** Inputs of one `POST /v1/contacts/batch` of the bench (the route's maximum). */
export const BATCH_SIZE = 100;

/** A `POST /v1/contacts/batch` body: `BATCH_SIZE` new people (every input is a creation). */
export function contactBatchBody(people: PersonFactory): string {
  return JSON.stringify({ inputs: Array.from({ length: BATCH_SIZE }, () => ({ ...people.next(), company: 'Banc d’essai inc.' })) });
}

/** A body of the baseline's `POST /capture`: the identity fields only. */
export function baselineCaptureBody(person: BenchPerson): string {
  return JSON.stringify(person);
}

/** Extra headers of one request; `{}` unless the scenario poses as many clients behind a proxy. */
type HeaderSource = () => Record<string, string>;
const NO_HEADERS: HeaderSource = () => ({});

/**
 * A new client address of 198.18.0.0/15 (RFC 2544) per call, as `X-Forwarded-For` (see `BENCH_FORWARDED_FOR`):
 * 131 072 addresses before one repeats, far more than a run sends per minute.
 */
export function forwardedClients(): HeaderSource {
  let n = 0;
  return () => {
    const slot = n++ % 131_072;
    return { 'x-forwarded-for': `198.${18 + (slot >> 16)}.${(slot >> 8) & 255}.${slot & 255}` };
  };
}

/** Requests whose body is built anew for every send (a new person each time). */
function unique(method: 'POST', path: string, body: () => string, headers: HeaderSource = NO_HEADERS): autocannon.Request[] {
  return [{ method, path, setupRequest: (request) => ({ ...request, method, path, body: body(), headers: { ...request.headers, ...headers() } }) }];
}

/** The same body every time, with per-request headers. */
function repeated(method: 'POST', path: string, body: string, headers: HeaderSource): autocannon.Request[] {
  return [{ method, path, setupRequest: (request) => ({ ...request, method, path, body, headers: { ...request.headers, ...headers() } }) }];
}

function fixed(method: 'GET' | 'POST', path: string, body: string | null): autocannon.Request[] {
  return [body === null ? { method, path } : { method, path, body }];
}

/** The api's write scenarios, in the order they run; `forwardedFor`: lead capture poses as many clients (config `forwardedFor`). */
export function apiScenarios(people: PersonFactory, forwardedFor = false): Scenario[] {
  const replayed = leadCaptureBody(people.next());
  const clients = forwardedFor ? forwardedClients() : NO_HEADERS;
  return [
    {
      name: 'lead_capture_new',
      label: 'POST /v1/leads/capture, new contact each request',
      target: 'api',
      method: 'POST',
      path: '/v1/leads/capture',
      baseline: 'baseline_capture_new',
      probe: { body: leadCaptureBody(people.next()) },
      requests: unique('POST', '/v1/leads/capture', () => leadCaptureBody(people.next()), clients),
    },
    {
      name: 'lead_capture_replay',
      label: 'POST /v1/leads/capture, same payload again (replay)',
      target: 'api',
      method: 'POST',
      path: '/v1/leads/capture',
      baseline: 'baseline_capture_replay',
      probe: { body: replayed },
      requests: repeated('POST', '/v1/leads/capture', replayed, clients),
    },
    {
      name: 'contact_create',
      label: 'POST /v1/contacts, new contact each request',
      target: 'api',
      method: 'POST',
      path: '/v1/contacts',
      baseline: 'baseline_capture_new',
      probe: { body: contactCreateBody(people.next()) },
      requests: unique('POST', '/v1/contacts', () => contactCreateBody(people.next())),
    },
    {
      // issue 15, item 5: reported in contacts per second (2xx responses per second × 100); no bare baseline does a batch
      name: 'contact_batch_upsert',
      label: `POST /v1/contacts/batch, ${BATCH_SIZE} new contacts each request`,
      target: 'api',
      method: 'POST',
      path: '/v1/contacts/batch',
      baseline: null,
      probe: { body: contactBatchBody(people) },
      requests: unique('POST', '/v1/contacts/batch', () => contactBatchBody(people)),
      itemsPerRequest: BATCH_SIZE,
    },
  ];
}

/** The api's read scenarios. `contactId`: the contact `contact_read` reads (null: not created, the scenario is skipped). */
export function apiReadScenarios(contactId: string | null): Scenario[] {
  const readPath = `/v1/contacts/${contactId ?? '{id}'}`;
  return [
    {
      name: 'contact_read',
      label: 'GET /v1/contacts/{id}',
      target: 'api',
      method: 'GET',
      path: readPath,
      baseline: 'baseline_read',
      probe: { body: null },
      requests: fixed('GET', readPath, null),
    },
    {
      name: 'contact_list',
      label: 'GET /v1/contacts?limit=20',
      target: 'api',
      method: 'GET',
      path: '/v1/contacts?limit=20',
      baseline: 'baseline_list',
      probe: { body: null },
      requests: fixed('GET', '/v1/contacts?limit=20', null),
    },
    {
      name: 'me',
      label: 'GET /v1/me',
      target: 'api',
      method: 'GET',
      path: '/v1/me',
      baseline: 'baseline_me',
      probe: { body: null },
      requests: fixed('GET', '/v1/me', null),
    },
  ];
}

/** The baseline's write scenarios (`POST /capture`: insert-or-find by email and phone in one transaction). */
export function baselineWriteScenarios(people: PersonFactory): Scenario[] {
  const replayed = baselineCaptureBody(people.next());
  return [
    {
      name: 'baseline_capture_new',
      label: 'bare Fastify + pg: insert-or-find, new contact each request',
      target: 'baseline',
      method: 'POST',
      path: '/capture',
      baseline: null,
      probe: { body: baselineCaptureBody(people.next()) },
      requests: unique('POST', '/capture', () => baselineCaptureBody(people.next())),
    },
    {
      name: 'baseline_capture_replay',
      label: 'bare Fastify + pg: insert-or-find, same payload again',
      target: 'baseline',
      method: 'POST',
      path: '/capture',
      baseline: null,
      probe: { body: replayed },
      requests: fixed('POST', '/capture', replayed),
    },
  ];
}

/** The baseline's keyed reads: one row by primary key, and the first page of the list keyset. */
export function baselineReadScenarios(contactId: string): Scenario[] {
  return [
    {
      name: 'baseline_read',
      label: 'bare Fastify + pg: one contact by id',
      target: 'baseline',
      method: 'GET',
      path: `/contacts/${contactId}`,
      baseline: null,
      probe: { body: null },
      requests: fixed('GET', `/contacts/${contactId}`, null),
    },
    {
      name: 'baseline_me',
      label: 'bare Fastify: the key description, after the quota call',
      target: 'baseline',
      method: 'GET',
      path: '/me',
      baseline: null,
      probe: { body: null },
      requests: fixed('GET', '/me', null),
    },
    {
      name: 'baseline_list',
      label: 'bare Fastify + pg: first page of 20',
      target: 'baseline',
      method: 'GET',
      path: '/contacts?limit=20',
      baseline: null,
      probe: { body: null },
      requests: fixed('GET', '/contacts?limit=20', null),
    },
  ];
}
