#!/usr/bin/env node
/**
 * Checks that the French and English OpenAPI descriptions describe one contract
 * (public-api-v1 › Versioning: "The English and French descriptions share one contract"), for both
 * descriptions the service serves: the public one (`openapi.fr.yaml`, `openapi.en.yaml`, `/v1` paths
 * only) and the operator one (`operator.fr.yaml`, `operator.en.yaml`: `/admin/v1`, `/health`, the
 * public quote page, the document routes).
 *
 *   node tools/scripts/check-openapi-parity.mjs                    # both pairs of apps/api/openapi/
 *   node tools/scripts/check-openapi-parity.mjs fr.yaml en.yaml    # one pair
 *   node tools/scripts/check-openapi-parity.mjs pub.fr pub.en op.fr op.en
 *
 * With both pairs it also fails when a public path does not start with `/v1/`, an operator path does
 * (each route belongs to exactly one description), a path is in both, or an operationId is used by both.
 *
 * Each pair fails (exit 1) when:
 * - a file is not valid YAML, is not `openapi: 3.1.0`, has an unresolved local `$ref`, a duplicate
 *   `operationId`, a path template parameter not declared as a required path parameter, an operation
 *   without operationId / tags / summary / description / `x-required-scope`, a scope missing from the
 *   operation description, or an error response (4xx/5xx with the error envelope) whose codes are
 *   not in both `x-error-codes` and its description;
 * - the two files differ in paths, methods, operationIds, tags, security, `x-required-scope`,
 *   parameters (name, location, required, schema), request bodies, response status codes, response
 *   headers, `x-error-codes`, schema property names, required lists or enum values;
 * - anything else differs once `info` (except `info.version`) and every `summary` and `description`
 *   text are set aside: those are the only members allowed to differ by language. Examples are data:
 *   an `example` or `examples` present in one file only, or with another value, fails (only the
 *   `summary` / `description` of a named example may be translated).
 *
 * That every example is present where required and valid against its schema is checked by
 * apps/api/src/openapi/openapi-examples.spec.ts (Ajv 2020, strict), in `npm test`.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ARGS = process.argv.slice(2);
if (![0, 2, 4].includes(ARGS.length)) {
  console.error('usage: check-openapi-parity.mjs [fr.yaml en.yaml [operator.fr.yaml operator.en.yaml]]');
  process.exit(2);
}
const PAIRS =
  ARGS.length > 0
    ? [ARGS.slice(0, 2), ARGS.slice(2, 4)].filter((pair) => pair.length === 2).map((pair) => pair.map((path) => resolve(path)))
    : [
        [resolve(ROOT, 'apps/api/openapi/openapi.fr.yaml'), resolve(ROOT, 'apps/api/openapi/openapi.en.yaml')],
        [resolve(ROOT, 'apps/api/openapi/operator.fr.yaml'), resolve(ROOT, 'apps/api/openapi/operator.en.yaml')],
      ];
/** The public description's paths: `/v1` and below. */
const PUBLIC_PATH = /^\/v1(\/|$)/;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Keys holding user-chosen names: a `description` or `summary` key inside them is a name, not a text. */
const NAME_MAPS = new Set([
  'properties', 'patternProperties', '$defs', 'schemas', 'responses', 'parameters', 'headers', 'securitySchemes',
  'examples', 'requestBodies', 'links', 'callbacks', 'pathItems', 'content', 'variables', 'encoding', 'mapping', 'paths',
]);
const TEXT_KEYS = new Set(['summary', 'description']);

const problems = [];
const problem = (message) => problems.push(message);

// ---------------------------------------------------------------- loading
function load(path) {
  const label = relative(process.cwd(), path) || path;
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    problem(`${label}: cannot read (${error.message})`);
    return null;
  }
  try {
    const doc = parse(text, { uniqueKeys: true, prettyErrors: true });
    if (!doc || typeof doc !== 'object') {
      problem(`${label}: not a YAML mapping`);
      return null;
    }
    return { label, doc };
  } catch (error) {
    problem(`${label}: invalid YAML: ${error.message}`);
    return null;
  }
}

// ---------------------------------------------------------------- helpers
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const pointer = (segments) => '/' + segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const show = (value) => (value === undefined ? 'absent' : JSON.stringify(value));

function getRef(doc, ref) {
  if (!ref.startsWith('#/')) return undefined;
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = node[key];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Follows `$ref` chains of a node (parameters, responses, headers…). */
function deref(doc, node) {
  const seen = new Set();
  while (isObject(node) && typeof node.$ref === 'string' && !seen.has(node.$ref)) {
    seen.add(node.$ref);
    const target = getRef(doc, node.$ref);
    if (target === undefined) return node;
    node = target;
  }
  return node;
}

/** True when a response body is the error envelope (a schema with `code` and `request_id`, directly or through allOf). */
function carriesErrorEnvelope(doc, response) {
  const isEnvelope = (schema, depth = 0) => {
    const node = deref(doc, schema);
    if (!isObject(node) || depth > 10) return false;
    if (isObject(node.properties) && 'code' in node.properties && 'request_id' in node.properties) return true;
    return Array.isArray(node.allOf) && node.allOf.some((part) => isEnvelope(part, depth + 1));
  };
  return Object.values(response.content ?? {}).some((media) => isEnvelope(media?.schema));
}

function walk(node, visit, path = []) {
  visit(node, path);
  if (Array.isArray(node)) node.forEach((item, i) => walk(item, visit, [...path, i]));
  else if (isObject(node)) for (const [key, value] of Object.entries(node)) walk(value, visit, [...path, key]);
}

function operations(doc) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) if (isObject(item[method])) ops.push({ path, method, item, op: item[method] });
  }
  return ops;
}

// ---------------------------------------------------------------- per-document checks
function checkDocument({ label, doc }) {
  if (doc.openapi !== '3.1.0') problem(`${label}: openapi is ${show(doc.openapi)}, expected "3.1.0"`);
  if (!isObject(doc.info) || typeof doc.info.title !== 'string' || typeof doc.info.version !== 'string') {
    problem(`${label}: info.title and info.version are required strings`);
  }
  if (typeof doc.info?.description !== 'string' || doc.info.description.trim() === '') problem(`${label}: info.description is empty`);
  if (!isObject(doc.paths)) problem(`${label}: paths is missing`);

  walk(doc, (node, path) => {
    if (isObject(node) && typeof node.$ref === 'string') {
      if (!node.$ref.startsWith('#/')) problem(`${label}: ${pointer(path)}: only local $ref are expected (${node.$ref})`);
      else if (getRef(doc, node.$ref) === undefined) problem(`${label}: ${pointer(path)}: unresolved $ref ${node.$ref}`);
    }
  });

  const scopeEnum = doc.components?.schemas?.Scope?.enum ?? null;
  const seenIds = new Map();
  for (const { path, method, item, op } of operations(doc)) {
    const where = `${label}: ${method.toUpperCase()} ${path}`;
    for (const field of ['operationId', 'summary', 'description']) {
      if (typeof op[field] !== 'string' || op[field].trim() === '') problem(`${where}: ${field} is missing`);
    }
    if (!Array.isArray(op.tags) || op.tags.length === 0) problem(`${where}: tags are missing`);
    if (op.operationId) {
      if (seenIds.has(op.operationId)) problem(`${where}: operationId ${op.operationId} already used by ${seenIds.get(op.operationId)}`);
      seenIds.set(op.operationId, `${method.toUpperCase()} ${path}`);
    }
    if (!('x-required-scope' in op)) problem(`${where}: x-required-scope is missing (use null for no scope)`);
    else if (op['x-required-scope'] !== null) {
      const scope = op['x-required-scope'];
      if (typeof scope !== 'string') problem(`${where}: x-required-scope must be a string or null`);
      else {
        if (scopeEnum && !scopeEnum.includes(scope)) problem(`${where}: x-required-scope ${scope} is not in components.schemas.Scope`);
        if (typeof op.description === 'string' && !op.description.includes(scope)) problem(`${where}: the description does not name the scope ${scope}`);
      }
    }

    // Path template parameters must be declared, in: path, required: true.
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
    const declared = new Set();
    for (const param of params) {
      if (!isObject(param) || typeof param.name !== 'string' || typeof param.in !== 'string') {
        problem(`${where}: a parameter has no name or in`);
        continue;
      }
      if (!('schema' in param) && !('content' in param)) problem(`${where}: parameter ${param.name} has neither schema nor content`);
      if (param.in === 'path') {
        declared.add(param.name);
        if (param.required !== true) problem(`${where}: path parameter ${param.name} must be required`);
        if (!path.includes(`{${param.name}}`)) problem(`${where}: path parameter ${param.name} is not in the path`);
      }
    }
    for (const match of path.matchAll(/\{([^}]+)\}/g)) {
      if (!declared.has(match[1])) problem(`${where}: path parameter {${match[1]}} is not declared`);
    }

    if (!isObject(op.responses) || Object.keys(op.responses).length === 0) {
      problem(`${where}: no responses`);
      continue;
    }
    for (const [status, raw] of Object.entries(op.responses)) {
      const response = deref(doc, raw);
      if (!/^[1-5](\d\d|XX)$/.test(status) && status !== 'default') problem(`${where}: invalid response key ${status}`);
      if (!isObject(response) || typeof response.description !== 'string') {
        problem(`${where} ${status}: response description is required`);
        continue;
      }
      if (/^[45]/.test(status) && carriesErrorEnvelope(doc, response)) {
        const errorCodes = response['x-error-codes'];
        if (!Array.isArray(errorCodes) || errorCodes.length === 0 || !errorCodes.every((c) => typeof c === 'string')) {
          problem(`${where} ${status}: x-error-codes must list the error codes`);
        } else {
          for (const code of errorCodes) {
            if (!response.description.includes(code)) problem(`${where} ${status}: error code ${code} is not named in the description`);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------- parity checks
function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function compare(where, fr, en) {
  if (!sameJson(fr, en)) problem(`${where}: fr ${show(fr)} ≠ en ${show(en)}`);
}

function compareKeys(where, fr, en) {
  const a = Object.keys(fr ?? {});
  const b = Object.keys(en ?? {});
  const onlyFr = a.filter((k) => !b.includes(k));
  const onlyEn = b.filter((k) => !a.includes(k));
  if (onlyFr.length) problem(`${where}: only in fr: ${onlyFr.join(', ')}`);
  if (onlyEn.length) problem(`${where}: only in en: ${onlyEn.join(', ')}`);
  return a.filter((k) => b.includes(k));
}

/** Everything but the texts: drops `summary` and `description` members (not names) and `info` except its version. */
function contract(node, parentKey = null) {
  if (Array.isArray(node)) return node.map((item) => contract(item));
  if (!isObject(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (parentKey === null && key === 'info') {
      out.info = { version: value?.version };
      continue;
    }
    if (TEXT_KEYS.has(key) && !NAME_MAPS.has(parentKey) && typeof value === 'string') continue;
    out[key] = contract(value, key);
  }
  return out;
}

/** Property names, required lists and enums of every schema in a document, by JSON pointer. */
function schemaFacts(doc) {
  const facts = new Map();
  walk(doc, (node, path) => {
    if (!isObject(node)) return;
    const at = pointer(path);
    if (isObject(node.properties)) facts.set(`${at} properties`, Object.keys(node.properties).sort());
    if (Array.isArray(node.required) && node.required.every((r) => typeof r === 'string')) facts.set(`${at} required`, [...node.required].sort());
    if (Array.isArray(node.enum)) facts.set(`${at} enum`, node.enum);
    if ('const' in node) facts.set(`${at} const`, node.const);
  });
  return facts;
}

function deepDiff(fr, en, path, out) {
  if (out.length >= 50) return;
  if (Array.isArray(fr) && Array.isArray(en)) {
    if (fr.length !== en.length) out.push(`${pointer(path)}: array length fr ${fr.length} ≠ en ${en.length}`);
    for (let i = 0; i < Math.min(fr.length, en.length); i++) deepDiff(fr[i], en[i], [...path, i], out);
    return;
  }
  if (isObject(fr) && isObject(en)) {
    const keys = new Set([...Object.keys(fr), ...Object.keys(en)]);
    for (const key of keys) {
      if (!(key in fr)) out.push(`${pointer([...path, key])}: only in en`);
      else if (!(key in en)) out.push(`${pointer([...path, key])}: only in fr`);
      else deepDiff(fr[key], en[key], [...path, key], out);
    }
    return;
  }
  if (!sameJson(fr, en)) out.push(`${pointer(path)}: fr ${show(fr)} ≠ en ${show(en)}`);
}

function checkParity(fr, en) {
  const a = fr.doc;
  const b = en.doc;
  compare('openapi', a.openapi, b.openapi);
  compare('info.version', a.info?.version, b.info?.version);
  compare('tag names', (a.tags ?? []).map((t) => t.name), (b.tags ?? []).map((t) => t.name));
  compare('security', a.security, b.security);

  // Paths, methods and operations.
  for (const path of compareKeys('paths', a.paths, b.paths)) {
    const itemA = a.paths[path];
    const itemB = b.paths[path];
    const methodsA = METHODS.filter((m) => m in itemA);
    const methodsB = METHODS.filter((m) => m in itemB);
    compare(`${path} methods`, methodsA, methodsB);
    compare(`${path} path-level parameters`, contract(itemA.parameters ?? []), contract(itemB.parameters ?? []));
    for (const method of methodsA.filter((m) => methodsB.includes(m))) {
      const opA = itemA[method];
      const opB = itemB[method];
      const where = `${method.toUpperCase()} ${path}`;
      compare(`${where} operationId`, opA.operationId, opB.operationId);
      compare(`${where} tags`, opA.tags, opB.tags);
      compare(`${where} security`, opA.security, opB.security);
      compare(`${where} x-required-scope`, opA['x-required-scope'], opB['x-required-scope']);
      compare(`${where} deprecated`, opA.deprecated, opB.deprecated);

      const paramsA = (opA.parameters ?? []).map((p) => deref(a, p));
      const paramsB = (opB.parameters ?? []).map((p) => deref(b, p));
      compare(`${where} parameters (in:name)`, paramsA.map((p) => `${p.in}:${p.name}`), paramsB.map((p) => `${p.in}:${p.name}`));
      paramsA.forEach((p, i) => {
        const q = paramsB[i];
        if (!q || q.name !== p.name) return;
        compare(`${where} parameter ${p.name} required`, p.required ?? false, q.required ?? false);
        compare(`${where} parameter ${p.name} schema`, contract(p.schema), contract(q.schema));
      });

      compare(`${where} requestBody`, contract(deref(a, opA.requestBody)), contract(deref(b, opB.requestBody)));

      for (const status of compareKeys(`${where} response status codes`, opA.responses, opB.responses)) {
        const ra = deref(a, opA.responses[status]);
        const rb = deref(b, opB.responses[status]);
        compare(`${where} ${status} x-error-codes`, ra['x-error-codes'], rb['x-error-codes']);
        compare(`${where} ${status} headers`, Object.keys(ra.headers ?? {}), Object.keys(rb.headers ?? {}));
        compare(`${where} ${status} content types`, Object.keys(ra.content ?? {}), Object.keys(rb.content ?? {}));
        compare(`${where} ${status} content`, contract(ra.content), contract(rb.content));
      }
    }
  }

  // Components.
  for (const section of compareKeys('components', a.components, b.components)) {
    compareKeys(`components.${section}`, a.components[section], b.components[section]);
  }

  // Schema property names, required lists and enums, wherever they are.
  const factsA = schemaFacts(a);
  const factsB = schemaFacts(b);
  for (const key of new Set([...factsA.keys(), ...factsB.keys()])) {
    if (!factsA.has(key)) problem(`schema ${key}: only in en ${show(factsB.get(key))}`);
    else if (!factsB.has(key)) problem(`schema ${key}: only in fr ${show(factsA.get(key))}`);
    else compare(`schema ${key}`, factsA.get(key), factsB.get(key));
  }

  // Everything else, texts aside.
  const diffs = [];
  deepDiff(contract(a), contract(b), [], diffs);
  for (const diff of diffs) problem(`contract ${diff}`);
}

// ---------------------------------------------------------------- public / operator partition
/** Each route in exactly one description: public paths are `/v1`, operator paths are not, ids not shared. */
function checkPartition(publicPair, operatorPair) {
  for (const { label, doc } of publicPair) {
    for (const path of Object.keys(doc.paths ?? {})) {
      if (!PUBLIC_PATH.test(path)) problem(`${label}: ${path} is not a /v1 path (it belongs in the operator description)`);
    }
  }
  for (const { label, doc } of operatorPair) {
    for (const path of Object.keys(doc.paths ?? {})) {
      if (PUBLIC_PATH.test(path)) problem(`${label}: ${path} is a /v1 path (it belongs in the public description)`);
    }
  }
  const [pub, op] = [publicPair[0], operatorPair[0]];
  const ids = (doc) => new Set(operations(doc).map(({ op: operation }) => operation.operationId));
  const publicIds = ids(pub.doc);
  for (const id of ids(op.doc)) if (publicIds.has(id)) problem(`operationId ${id} is used by both ${pub.label} and ${op.label}`);
}

// ---------------------------------------------------------------- main
const loaded = PAIRS.map(([frPath, enPath]) => {
  const fr = load(frPath);
  const en = load(enPath);
  if (fr) checkDocument(fr);
  if (en) checkDocument(en);
  if (fr && en) checkParity(fr, en);
  return fr && en ? [fr, en] : null;
});
if (loaded.length === 2 && loaded.every(Boolean)) checkPartition(loaded[0], loaded[1]);

if (problems.length > 0) {
  const unique = [...new Set(problems)];
  console.error(`OpenAPI parity check failed (${unique.length} problem${unique.length > 1 ? 's' : ''}):`);
  for (const message of unique) console.error(`  - ${message}`);
  process.exit(1);
}

for (const [fr, en] of loaded) {
  const ops = operations(fr.doc);
  console.log(
    `OpenAPI parity OK: ${fr.label} and ${en.label} share one contract ` +
      `(${Object.keys(fr.doc.paths).length} paths, ${ops.length} operations, ` +
      `${Object.keys(fr.doc.components?.schemas ?? {}).length} schemas).`,
  );
}
if (loaded.length === 2) console.log('OpenAPI partition OK: the public descriptions hold /v1 paths only, the operator ones every other path.');
