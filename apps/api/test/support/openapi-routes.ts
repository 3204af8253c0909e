import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * The `/v1` and `/admin/v1` operations of the served OpenAPI descriptions (`apps/api/openapi/openapi.en.yaml`
 * for `/v1`, `operator.en.yaml` for `/admin/v1`: the files `/openapi.en.json` and `/admin/openapi.en.json`
 * are parsed from), with their path and query parameters resolved through `components.parameters` and the
 * top-level property names of their JSON request body.
 */
export interface OpenApiOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** `{param}` form, as documented. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  headerParams: string[];
  /** Whether the operation documents a request body. */
  hasBody: boolean;
  /** Top-level property names of the request body schema (empty when unknown). */
  bodyFields: string[];
  admin: boolean;
}

const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;
const COVERED = /^\/(admin\/)?v1(\/|$)/;

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One description: `openapi` (public, `/v1` only) or `operator` (`/admin/v1`, `/health`, …). */
export function loadOpenApi(language: 'en' | 'fr' = 'en', description: 'openapi' | 'operator' = 'openapi'): Node {
  return parse(readFileSync(resolve(__dirname, '..', '..', 'openapi', `${description}.${language}.yaml`), 'utf8')) as Node;
}

function deref(document: Node, node: Node | undefined, depth = 0): Node | undefined {
  if (!node || depth > 10) return node;
  if (typeof node.$ref === 'string') {
    const target = node.$ref.replace(/^#\//, '').split('/').reduce((at: Node | undefined, key: string) => at?.[key], document);
    return deref(document, target, depth + 1);
  }
  return node;
}

function propertyNames(document: Node, schema: Node | undefined, depth = 0): string[] {
  const resolved = deref(document, schema);
  if (!resolved || depth > 5) return [];
  const names = new Set<string>(Object.keys(resolved.properties ?? {}));
  for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) {
    for (const name of propertyNames(document, part, depth + 1)) names.add(name);
  }
  return [...names];
}

/** The operations of the given descriptions (default: the public and the operator English ones). */
export function openApiOperations(documents: Node | Node[] = [loadOpenApi('en'), loadOpenApi('en', 'operator')]): OpenApiOperation[] {
  return (Array.isArray(documents) ? documents : [documents]).flatMap((document) => documentOperations(document));
}

function documentOperations(document: Node): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Node>)) {
    if (!COVERED.test(path)) continue;
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter: Node) => deref(document, parameter)!);
      const named = (where: string) => parameters.filter((parameter) => parameter.in === where).map((parameter) => parameter.name as string);
      const documentedPathParams = named('path');
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const body = deref(document, operation.requestBody);
      const schema = body?.content?.['application/json']?.schema as Node | undefined;
      operations.push({
        method: method.toUpperCase() as OpenApiOperation['method'],
        path,
        pathParams: templated.length > 0 ? templated : documentedPathParams,
        queryParams: named('query'),
        headerParams: named('header'),
        hasBody: body !== undefined,
        bodyFields: propertyNames(document, schema),
        admin: path.startsWith('/admin/'),
      });
    }
  }
  return operations;
}

/** Fills a `{param}` path with the given values (already encoded by the caller when needed). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {${name}} in ${path}`);
    return values[name];
  });
}

/**
 * Percent-encodes any string, lone surrogates included (as their WTF-8 bytes, which are not valid
 * UTF-8: what a broken client would send), where `encodeURIComponent` would throw.
 */
export function encodeAny(value: string): string {
  let out = '';
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += encodeURIComponent(value[index] + value[index + 1]);
        index += 1;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(value[index]);
    }
  }
  return out;
}

/**
 * What every error answer must look like (public-api-v1 › Errors): `code`, `message`, `details`,
 * `request_id`, plus `type` and `doc_url` except on the two simplified bodies (lead capture 422 and the
 * per-IP 429). Returns a list of problems (empty when the answer conforms).
 */
export function envelopeProblems(status: number, body: unknown, path: string): string[] {
  if (status >= 500) return [`server error ${status}`];
  if (status < 400) return [];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [`${status} body is not an object: ${String(body).slice(0, 200)}`];
  const envelope = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof envelope.code !== 'string' || envelope.code.length === 0) problems.push('code');
  if (typeof envelope.message !== 'string') problems.push('message');
  if (!('details' in envelope)) problems.push('details');
  if (typeof envelope.request_id !== 'string') problems.push('request_id');
  const simplified = (status === 422 && path.split('?')[0] === '/v1/leads/capture') || (status === 429 && envelope.code === 'rate_limited_ip');
  if (!simplified) {
    if (typeof envelope.type !== 'string') problems.push('type');
    if (typeof envelope.doc_url !== 'string') problems.push('doc_url');
  }
  return problems.map((member) => (member.includes(' ') ? member : `${status} envelope lacks ${member}`));
}
