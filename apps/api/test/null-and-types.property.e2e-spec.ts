import fc from 'fast-check';
import { newId } from '@leadflow/shared-kernel';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { loadOpenApi } from './support/openapi-routes';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI nodes and bodies are read member by member */

/**
 * `null` means what the contract says, everywhere (validation layer: `@Nullable()` and the pipe's null
 * rule). Property-based, from the documents themselves: both OpenAPI descriptions (public `/v1` and
 * operator `/admin/v1`) are read, every JSON request body's leaves are listed (every property at every
 * depth, array elements included), and the documented example body is sent with ONE leaf replaced:
 *
 * - by `null` where the leaf is not documented nullable, and by a value of every JSON type the leaf does
 *   not declare (values drawn by fast-check): 400 `validation_error` whose `details` name that field
 *   (reason `invalid_type` or `required` for `null`), and nothing written anywhere (row counts of every
 *   table, outbox included, unchanged over the whole sweep);
 * - by `null` where the leaf is documented nullable: no validation error names it.
 *
 * Form bodies (`application/x-www-form-urlencoded`: the console and the quote page) cannot carry a JSON
 * type and are not swept. The batch (`x-item-outcomes: inputs`) answers each element in `data[index]`:
 * an element's refusal is its own 400-shaped error there, with paths relative to the element. Lead capture documents its leniency (a funnel's odd value never loses a lead):
 * its leaves are nullable and an undeclared type is reported in `ignored_fields`, never refused; the
 * sweep reads that from the operation's `x-lenient-fields: true`. A new route or field that breaks the
 * rule fails here. Seed: `NULL_PROPERTY_SEED` (printed).
 */

const SEED = Number(process.env.NULL_PROPERTY_SEED ?? Date.now() % 2 ** 31);
const JSON_TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;
type JsonType = (typeof JSON_TYPES)[number];

interface Leaf {
  /** Dotted path, array indices in brackets (`api_keys[0].per_hour`). */
  path: string;
  segments: (string | number)[];
  types: Set<JsonType>;
  nullable: boolean;
}

interface BodyOperation {
  method: string;
  /** Documented path template. */
  template: string;
  example: any;
  leaves: Leaf[];
  lenient: boolean;
  /** `x-item-outcomes`: the array member whose elements are validated one by one and answered in `data[index]` (the batch). */
  itemOutcomes: string | undefined;
  admin: boolean;
}

function deref(document: any, node: any, depth = 0): any {
  if (!node || typeof node.$ref !== 'string' || depth > 10) return node;
  return deref(document, node.$ref.replace(/^#\//, '').split('/').reduce((at: any, key: string) => at?.[key], document), depth + 1);
}

/** The JSON types a schema admits (`type`, members of `oneOf`/`anyOf`, `const`/`enum` values); empty when it says nothing. */
function typesOf(document: any, schema: any): Set<JsonType> {
  const resolved = deref(document, schema) ?? {};
  const types = new Set<JsonType>();
  for (const type of [resolved.type ?? []].flat()) types.add(type as JsonType);
  for (const member of [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) for (const type of typesOf(document, member)) types.add(type);
  for (const value of [...(resolved.enum ?? []), ...('const' in resolved ? [resolved.const] : [])]) types.add(jsonTypeOf(value));
  if (types.has('number')) types.add('integer');
  return types;
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** Properties of an object schema, `allOf`/`oneOf`/`anyOf` members merged. */
function propertiesOf(document: any, schema: any, depth = 0): Record<string, any> {
  const resolved = deref(document, schema);
  if (!resolved || depth > 6) return {};
  const properties: Record<string, any> = { ...(resolved.properties ?? {}) };
  for (const member of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) {
    for (const [name, property] of Object.entries(propertiesOf(document, member, depth + 1))) properties[name] ??= property;
  }
  return properties;
}

function leavesOf(document: any, schema: any, segments: (string | number)[] = [], depth = 0): Leaf[] {
  if (depth > 6) return [];
  const leaves: Leaf[] = [];
  for (const [name, property] of Object.entries(propertiesOf(document, schema))) {
    const path = [...segments, name];
    const types = typesOf(document, property);
    leaves.push({ path: pathText(path), segments: path, types, nullable: types.has('null') });
    const resolved = deref(document, property);
    if (types.has('object')) leaves.push(...leavesOf(document, resolved, path, depth + 1));
    const items = deref(document, resolved?.items);
    if (items) {
      const element = [...path, 0];
      const elementTypes = typesOf(document, items);
      if (elementTypes.size > 0) leaves.push({ path: pathText(element), segments: element, types: elementTypes, nullable: elementTypes.has('null') });
      if (elementTypes.has('object')) leaves.push(...leavesOf(document, items, element, depth + 1));
    }
  }
  return leaves;
}

function pathText(segments: (string | number)[]): string {
  return segments.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}

function bodyOperations(): BodyOperation[] {
  const operations: BodyOperation[] = [];
  for (const description of ['openapi', 'operator'] as const) {
    const document = loadOpenApi('en', description);
    for (const [template, item] of Object.entries<any>(document.paths)) {
      for (const method of ['post', 'patch', 'put']) {
        const operation = item[method];
        const media = operation && deref(document, operation.requestBody)?.content?.['application/json'];
        if (!media) continue;
        const itemOutcomes: string | undefined = operation['x-item-outcomes'];
        let example = media.example ?? Object.values<any>(media.examples ?? {})[0]?.value ?? deref(document, media.schema)?.example ?? {};
        // One element only, so a refused element leaves nothing else of the request to write.
        if (itemOutcomes && Array.isArray(example[itemOutcomes])) example = { ...example, [itemOutcomes]: example[itemOutcomes].slice(0, 1) };
        operations.push({
          method: method.toUpperCase(),
          template,
          example,
          leaves: leavesOf(document, media.schema).filter((leaf) => leaf.types.size > 0),
          lenient: operation['x-lenient-fields'] === true,
          itemOutcomes,
          admin: description === 'operator',
        });
      }
    }
  }
  return operations;
}

/** A copy of `body` with the leaf at `segments` set to `value` (missing parents made: `{}` or `[{}]`). */
function withLeaf(body: any, segments: (string | number)[], value: unknown): any {
  const copy = structuredClone(body ?? {});
  let at = copy;
  segments.forEach((segment, index) => {
    if (index === segments.length - 1) {
      at[segment] = value;
      return;
    }
    const next = segments[index + 1];
    const existing = at[segment];
    const wanted = typeof next === 'number' ? Array.isArray(existing) : existing !== null && typeof existing === 'object' && !Array.isArray(existing);
    if (!wanted) at[segment] = typeof next === 'number' ? [] : {};
    if (typeof next === 'number' && at[segment][next] === undefined) at[segment][next] = typeof segments[index + 2] === 'string' ? {} : null;
    at = at[segment];
  });
  return copy;
}

/** A value of `type` drawn by fast-check (an `integer` leaf gets a non-integer for `number`). */
function arbitraryOf(type: JsonType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: -1_000_000, max: 1_000_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).filter((n) => !Number.isInteger(n));
    case 'string':
      return fc.string({ maxLength: 12 });
    case 'array':
      return fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean()), { maxLength: 3 });
    case 'object':
      return fc.dictionary(fc.constantFrom('a', 'b', 'x_y'), fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxKeys: 2 });
  }
}

/** Undeclared JSON types of a leaf: what must be refused. */
function undeclared(leaf: Leaf): JsonType[] {
  return JSON_TYPES.filter((type) => !leaf.types.has(type) && !(type === 'integer' && leaf.types.has('number')));
}

/**
 * The validation detail that names the leaf: its own path, a path below it (`answers[0][0]` for an
 * array sent at `answers[0]`), or, for an array element, the array (`features` for `features[0]`:
 * class-validator's `each` rules name the array). For a member of an `x-item-outcomes` element the
 * detail is the element's own (`data[0].error.details`, paths relative to the element).
 */
function validationDetail(operation: BodyOperation, leaf: Leaf, response: TestResponse): any {
  let body = response.body;
  let path = leaf.path;
  let status = response.status;
  const prefix = operation.itemOutcomes === undefined ? undefined : `${operation.itemOutcomes}[0]`;
  if (prefix !== undefined && path.startsWith(prefix)) {
    const outcome = body?.data?.[0];
    if (response.status !== 200 || outcome?.status !== 'error') return undefined;
    body = outcome.error;
    status = 400;
    path = path.slice(prefix.length).replace(/^\./, '');
  }
  if (status !== 400 || body?.code !== 'validation_error') return undefined;
  const parent = /\[\d+\]$/.test(path) ? path.replace(/\[\d+\]$/, '') : undefined;
  const names = (field: string) => field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`) || (parent !== undefined && field === parent);
  const details = body.details;
  return Array.isArray(details) ? details.find((detail: any) => typeof detail.field === 'string' && names(detail.field)) : undefined;
}

describe('null means what the contract says, at every request-body leaf of both OpenAPI documents', () => {
  const operations = bodyOperations();
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let request = 0;
  let contactId: string;

  beforeAll(async () => {
    process.stdout.write(`null-and-types property: seed ${SEED} (NULL_PROPERTY_SEED), ${operations.length} operations, ${operations.reduce((n, o) => n + o.leaves.length, 0)} leaves\n`);
    api = await TestApi.start();
    account = await api.provision({ api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 1_000_000, events_per_minute: 100_000 }] });
    token = account.api_keys.full.key;
    const contact = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: 'null.sweep@example.com', first_name: 'Nulle' } });
    contactId = contact.body.data.id;
  });
  afterAll(() => api.close());

  /** Path ids: the account's own for `{account_id}`, a live contact for `/v1/contacts/{id}/…` (whose handlers check the contact before the members they validate themselves, such as `tag_ids[]`), random elsewhere. */
  const send = (operation: BodyOperation, body: unknown): Promise<TestResponse> => {
    request += 1;
    const path = operation.template.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'account_id' ? account.account_id : name === 'id' && operation.template.startsWith('/v1/contacts/') ? contactId : newId(),
    );
    return api.request({
      method: operation.method as any,
      path,
      body,
      token: operation.admin ? TEST_ADMIN_TOKEN : token,
      remoteAddress: `10.88.${(request >> 8) & 255}.${request & 255}`,
    });
  };

  /** Row counts of every table of the database (outbox included). */
  const rowCounts = async (): Promise<Record<string, number>> => {
    const sql = sqlOf(api);
    const tables = await sql.query<{ name: string }>(
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) counts[name] = await sql.count(name);
    return counts;
  };

  it('documents at least one leaf for every JSON request body, and both documents are read', () => {
    expect(operations.some((operation) => operation.admin)).toBe(true);
    expect(operations.some((operation) => !operation.admin)).toBe(true);
    for (const operation of operations) expect({ route: `${operation.method} ${operation.template}`, leaves: operation.leaves.length > 0 }).toEqual({ route: `${operation.method} ${operation.template}`, leaves: true });
  });

  it('a leaf not documented nullable refuses null and every undeclared JSON type with 400 validation_error naming the field, and nothing is written', async () => {
    const before = await rowCounts();
    const failures: string[] = [];
    for (const operation of operations) {
      for (const leaf of operation.leaves) {
        const types = undeclared(leaf).filter((type) => !(operation.lenient && type !== 'null'));
        for (const type of types) {
          await fc.assert(
            fc.asyncProperty(arbitraryOf(type), async (value) => {
              const response = await send(operation, withLeaf(operation.example, leaf.segments, value));
              const detail = validationDetail(operation, leaf, response);
              const ok = detail !== undefined && (type !== 'null' || ['invalid_type', 'required'].includes(detail.reason));
              if (!ok) failures.push(`${operation.method} ${operation.template} ${leaf.path} = ${JSON.stringify(value)} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
              return true;
            }),
            { seed: SEED, numRuns: type === 'null' ? 1 : 2 },
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });

  it('a leaf documented nullable accepts null: no validation error refuses its type', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      for (const leaf of operation.leaves.filter((candidate) => candidate.nullable || operation.lenient)) {
        const response = await send(operation, withLeaf(operation.example, leaf.segments, null));
        // `required` may still name it where null reads as "not sent" and a rule wants one of several members (event_id or event_slug).
        const detail = validationDetail(operation, leaf, response);
        if (detail?.reason === 'invalid_type' || response.status >= 500) failures.push(`${operation.method} ${operation.template} ${leaf.path} = null → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
