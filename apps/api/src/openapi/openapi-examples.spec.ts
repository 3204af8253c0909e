import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { OPENAPI_DIR, OPENAPI_DOCUMENTS } from './openapi.controller';

/**
 * Examples of the four OpenAPI descriptions (issue 16, item 4), checked with Ajv's JSON Schema 2020-12
 * validator (OpenAPI 3.1's dialect) in strict mode (but `strictRequired`, see below), formats included (`ajv-formats`):
 * - every request body and every 2xx response with a body has an example in each of its media types
 *   (`example`, or `examples` with at least one `value`);
 * - every example of the description is valid against the schema it illustrates: media-type examples
 *   (request bodies, every response), parameter and header examples, and each `examples` entry of a schema.
 * A failure lists every missing or invalid example with its location (JSON pointer) and Ajv's errors.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
/** OpenAPI 3.1 keywords of the Schema Object that JSON Schema 2020-12 does not define (annotations only). */
const OPENAPI_SCHEMA_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];

/** Keys whose members are user-chosen names (a property called `type` is not a schema keyword). */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'schemas', 'responses', 'parameters', 'headers', 'examples', 'requestBodies', 'content', 'paths', 'securitySchemes']);

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);
const pointer = (segments: (string | number)[]) => '/' + segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Every `x-…` key used inside schemas: declared to Ajv as annotations so strict mode accepts them. */
function extensionKeywords(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => extensionKeywords(item, found));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return found;
}

/** Rewrites local `#/components/schemas/X` references to the registered document (`<id>#/$defs/X`). */
function absoluteRefs(node: Json, id: string): Json {
  if (Array.isArray(node)) return node.map((item) => absoluteRefs(item, id));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? `${id}#/$defs/${value.slice('#/components/schemas/'.length)}` : absoluteRefs(value, id);
  }
  return out;
}

/** Follows a local `$ref` (responses, parameters, headers, request bodies, examples). */
function deref(doc: JsonObject, node: Json): Json {
  const seen = new Set<string>();
  while (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/') && !seen.has(node.$ref)) {
    seen.add(node.$ref);
    let target: Json = doc;
    for (const raw of node.$ref.slice(2).split('/')) target = isObject(target) ? target[raw.replace(/~1/g, '/').replace(/~0/g, '~')] : null;
    node = target;
  }
  return node;
}

interface ExampleSite {
  where: string;
  schema: Json;
  value: Json;
}

interface DocumentExamples {
  /** Request bodies and 2xx responses lacking an example, by location. */
  missing: string[];
  /** Examples that do not validate, by location, with Ajv's errors. */
  invalid: string[];
  /** How many examples were validated. */
  checked: number;
}

/** The examples of a media type (`example` or every `examples.*.value`), with their locations. */
function mediaExamples(doc: JsonObject, media: JsonObject, where: string): { where: string; value: Json }[] {
  const found: { where: string; value: Json }[] = [];
  if ('example' in media) found.push({ where: `${where}/example`, value: media.example });
  if (isObject(media.examples)) {
    for (const [name, raw] of Object.entries(media.examples)) {
      const example = deref(doc, raw);
      if (isObject(example) && 'value' in example) found.push({ where: `${where}/examples/${name}`, value: example.value });
    }
  }
  return found;
}

/**
 * One description parsed, with an Ajv 2020 instance holding its component schemas (`<id>#/$defs/<Name>`).
 * Strict mode (unknown keywords, formats, types, tuples refused) except `strictRequired`: the
 * descriptions use required-only branches (`anyOf: [{ required: [email] }, { required: [phone] }]`),
 * valid JSON Schema that this one restriction would refuse.
 */
function loadDescription(file: string): { doc: JsonObject; id: string; ajv: Ajv2020; compile: (schema: Json) => ValidateFunction } {
  const doc = parse(readFileSync(resolve(OPENAPI_DIR, file), 'utf8')) as JsonObject;
  const id = `urn:leadflow:${file}`;
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  for (const keyword of [...OPENAPI_SCHEMA_KEYWORDS, ...extensionKeywords(doc)]) ajv.addKeyword({ keyword, schemaType: ['string', 'number', 'boolean', 'object', 'array', 'null'] });
  const components = isObject(doc.components) ? doc.components : {};
  ajv.addSchema({ $id: id, $defs: absoluteRefs(isObject(components.schemas) ? components.schemas : {}, id) } as object);
  return { doc, id, ajv, compile: (schema) => ajv.compile(absoluteRefs(schema, id) as object) };
}

/** Checks one description: presence on request bodies and 2xx responses, validity of every example. */
export function checkDocumentExamples(file: string): DocumentExamples {
  const { doc, compile } = loadDescription(file);
  const components = isObject(doc.components) ? doc.components : {};

  const missing: string[] = [];
  const sites: ExampleSite[] = [];
  const mediaSites = (content: Json, where: string, required: boolean) => {
    if (!isObject(content)) return;
    for (const [type, raw] of Object.entries(content)) {
      if (!isObject(raw)) continue;
      const media = raw;
      const at = `${where}/content/${pointer([type]).slice(1)}`;
      const examples = mediaExamples(doc, media, at);
      if (required && examples.length === 0) missing.push(at);
      if (media.schema !== undefined) examples.forEach((example) => sites.push({ ...example, schema: media.schema }));
    }
  };
  const parameterSites = (parameters: Json, where: string) => {
    if (!Array.isArray(parameters)) return;
    parameters.forEach((raw, index) => {
      const parameter = deref(doc, raw);
      if (!isObject(parameter) || parameter.schema === undefined) return;
      mediaExamples(doc, parameter, `${where}/parameters/${index}`).forEach((example) => sites.push({ ...example, schema: parameter.schema }));
    });
  };

  for (const [path, rawItem] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    parameterSites(item.parameters, pointer(['paths', path]));
    for (const method of METHODS.filter((m) => isObject(item[m]))) {
      const operation = item[method] as JsonObject;
      const at = pointer(['paths', path, method]);
      parameterSites(operation.parameters, at);
      const body = deref(doc, operation.requestBody ?? null);
      if (isObject(body)) mediaSites(body.content, `${at}/requestBody`, true);
      for (const [status, rawResponse] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
        const response = deref(doc, rawResponse);
        if (!isObject(response)) continue;
        mediaSites(response.content, `${at}/responses/${status}`, /^2/.test(status));
      }
    }
  }
  for (const kind of ['parameters', 'headers'] as const) {
    for (const [name, raw] of Object.entries(isObject(components[kind]) ? components[kind] : {})) {
      if (isObject(raw) && raw.schema !== undefined) mediaExamples(doc, raw, pointer(['components', kind, name])).forEach((example) => sites.push({ ...example, schema: raw.schema }));
    }
  }
  // `examples` arrays of schemas (JSON Schema 2020-12): each entry must be valid against its own schema.
  const schemaExamples = (node: Json, segments: (string | number)[]) => {
    if (Array.isArray(node)) return node.forEach((item, index) => schemaExamples(item, [...segments, index]));
    if (!isObject(node)) return;
    const isNameMap = NAME_MAPS.has(String(segments[segments.length - 1]));
    const isSchema = !isNameMap && ('type' in node || 'properties' in node || '$ref' in node || 'oneOf' in node || 'anyOf' in node || 'allOf' in node || 'enum' in node);
    if (isSchema && Array.isArray(node.examples)) {
      node.examples.forEach((value, index) => sites.push({ where: `${pointer(segments)}/examples/${index}`, schema: node, value }));
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' && Array.isArray(value) && isSchema) continue;
      schemaExamples(value, [...segments, key]);
    }
  };
  schemaExamples(doc, []);

  const compiled = new Map<Json, ValidateFunction>();
  const invalid: string[] = [];
  for (const site of sites) {
    let validate = compiled.get(site.schema);
    try {
      if (!validate) {
        validate = compile(site.schema);
        compiled.set(site.schema, validate);
      }
    } catch (error) {
      invalid.push(`${file}#${site.where}: schema does not compile in strict mode: ${(error as Error).message}`);
      continue;
    }
    if (!validate(site.value)) {
      const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
      invalid.push(`${file}#${site.where}:\n    ${errors.join('\n    ')}`);
    }
  }
  return { missing, invalid, checked: sites.length };
}

const FILES = Object.values(OPENAPI_DOCUMENTS).flatMap((pair) => Object.values(pair));

describe('OpenAPI examples (issue 16, item 4): present on every request body and 2xx response, valid against their schemas (Ajv 2020, strict)', () => {
  const results = new Map(FILES.map((file) => [file, checkDocumentExamples(file)]));

  it.each(FILES)('%s: every request body and every 2xx response body has an example', (file) => {
    expect(results.get(file)?.missing).toEqual([]);
  });

  it.each(FILES)('%s: every example is valid against its schema', (file) => {
    const result = results.get(file);
    expect(result?.checked).toBeGreaterThan(0);
    if (result?.invalid.length) throw new Error(`${result.invalid.length} invalid example(s):\n  ${result.invalid.join('\n  ')}`);
  });
});

describe('the error oneOf of lead capture, presuasion submissions and custom events (issue 16, item 4)', () => {
  it.each(['openapi.fr.yaml', 'openapi.en.yaml'])('%s: SimplifiedError and Error are exclusive, so each envelope matches exactly one branch', (file) => {
    const { doc, compile } = loadDescription(file);
    const schemas = (doc.components as JsonObject).schemas as JsonObject;
    const full = ((schemas.Error as JsonObject).examples as Json[])[0];
    const simplified = ((schemas.SimplifiedError as JsonObject).examples as Json[])[0];
    expect(compile({ $ref: '#/components/schemas/SimplifiedError' })(full)).toBe(false);
    expect(compile({ $ref: '#/components/schemas/Error' })(simplified)).toBe(false);

    const sites: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
      for (const [method, operation] of Object.entries(item as JsonObject)) {
        for (const [status, response] of Object.entries(((operation as JsonObject).responses ?? {}) as JsonObject)) {
          const schema = (((response as JsonObject).content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined)?.schema as JsonObject | undefined;
          const branches = JSON.stringify(schema?.oneOf ?? []);
          if (!branches.includes('SimplifiedError') || !branches.includes('"#/components/schemas/Error"')) continue;
          sites.push(`${method} ${path} ${status}`);
          const validate = compile(schema as Json);
          expect(validate(full)).toBe(true);
          expect(validate(simplified)).toBe(true);
        }
      }
    }
    expect(sites).toEqual(['post /v1/leads/capture 422', 'post /v1/leads/capture 429', 'post /v1/presuasion/submissions 429', 'post /v1/events 429']);
  });
});
