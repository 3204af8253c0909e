import { createHash } from 'node:crypto';
import { convertV2 } from 'openapi-to-postmanv2';
// The api's run-time half (file names, base URL): the api serves the collections this file generates.
import { DESCRIPTION_BASE_URL, POSTMAN_COLLECTIONS, POSTMAN_TOKEN_VARIABLE, PostmanCollectionJson } from '../../apps/api/src/openapi/postman-collection';

/*
 * Postman's converter at generation time only (tools/scripts/generate-postman.ts and the staleness spec
 * postman-collections.spec.ts): openapi-to-postmanv2 is a devDependency, and neither the api nor the
 * production build loads it.
 */

/** The value faker inside Postman's converter (json-schema-faker), one module instance shared with it. */
const schemaFaker = require('openapi-to-postmanv2/assets/json-schema-faker.js') as { option(options: Record<string, unknown>): void };

/** A UUID-shaped id derived from `seed` (SHA-256), so a regenerated collection is byte-identical. */
function stableId(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** mulberry32: a small seeded generator standing in for Math.random while the converter fakes values. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface PostmanItem {
  id?: string;
  name?: string;
  item?: PostmanItem[];
  request?: { auth?: { type: string } | null };
  response?: { id?: string; name?: string; code?: number }[];
}

/**
 * Converts one OpenAPI description (YAML text) into a Postman collection v2.1 with Postman's own
 * converter (`openapi-to-postmanv2`), folders by tag, request and response bodies and parameter values from
 * the description's examples, optional parameters present but unselected, then points it at this service:
 * - collection variables `baseUrl` (= `DESCRIPTION_BASE_URL`; the served copy names `PUBLIC_BASE_URL`) and
 *   `<tokenVariable>` (empty: paste the token there; `apiKey` for the public description, `adminToken`
 *   for the operator one), declared in `variable`;
 * - collection auth `Authorization: Bearer {{<tokenVariable>}}`, inherited by every request of an operation
 *   with a bearer scheme (the converter's own `{{bearerToken}}` is removed); operations with `security: []`
 *   get `noauth`;
 * - saved responses: the 2xx examples of the description (error bodies are left out: the converter would
 *   invent them from the schema).
 *
 * Deterministic, so the checked-in collections can be compared with a fresh conversion (staleness test):
 * ids are derived from each item's place, and the converter's value faker (json-schema-faker, used where
 * the description gives no example: error bodies, some parameters) draws from a seeded generator during
 * the conversion (its `random` option and `Math.random`, both restored afterwards).
 * About one second per description. Rejects when the converter refuses the description.
 */
export function toPostmanCollection(openApiYaml: string, tokenVariable = 'apiKey'): Promise<PostmanCollectionJson> {
  return new Promise((resolvePromise, reject) => {
    const random = Math.random;
    const seeded = seededRandom(20_261_125);
    Math.random = seeded;
    schemaFaker.option({ random: seeded });
    const restore = () => {
      Math.random = random;
      schemaFaker.option({ random });
    };
    try {
      convertV2({ type: 'string', data: openApiYaml }, { folderStrategy: 'Tags', parametersResolution: 'Example', enableOptionalParameters: false, includeAuthInfoInExample: false }, (error, result) => {
        restore();
        if (error) return reject(error);
        if (!result?.result || !result.output?.[0]) return reject(new Error(`OpenAPI → Postman conversion failed: ${result?.reason ?? 'no output'}`));
        const collection = result.output[0].data as { info: { _postman_id?: string; name: string }; item: PostmanItem[]; variable?: unknown; auth?: unknown };
        collection.info._postman_id = stableId(`collection ${collection.info.name}`);
        const visit = (items: PostmanItem[], place: string) =>
          items.forEach((item, index) => {
            const here = `${place}/${index}:${item.name ?? ''}`;
            if (item.id !== undefined) item.id = stableId(here);
            if (item.item) visit(item.item, here);
            if (item.request) {
              if (item.request.auth?.type === 'bearer') delete item.request.auth;
              else if (!item.request.auth) item.request.auth = { type: 'noauth' };
            }
            // Saved responses: the documented 2xx examples only. The converter invents error bodies from
            // the schema (`"code": "string"`, dates like `9509-69-55…`); the error catalogue documents them.
            if (item.response) item.response = item.response.filter((response) => response.code !== undefined && response.code >= 200 && response.code < 300);
            item.response?.forEach((response, n) => {
              if (response.id !== undefined) response.id = stableId(`${here}/response/${n}:${response.name ?? ''}`);
            });
          });
        visit(collection.item, collection.info.name);
        collection.variable = [
          { key: 'baseUrl', value: DESCRIPTION_BASE_URL, type: 'string' },
          { key: tokenVariable, value: '', type: 'string' },
        ];
        collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: `{{${tokenVariable}}}`, type: 'string' }] };
        resolvePromise(`${JSON.stringify(collection, null, 2)}\n`);
      });
    } catch (error) {
      restore();
      reject(error);
    }
  });
}

/**
 * Converts the four descriptions of `dir` (one after the other: the converter's faker is seeded through
 * the global `Math.random`). Returns the collection text keyed by file name (`postman.fr.json`…).
 */
export async function generatePostmanCollections(dir: string, read: (path: string) => string): Promise<Map<string, PostmanCollectionJson>> {
  const out = new Map<string, PostmanCollectionJson>();
  for (const audience of ['public', 'operator'] as const) {
    for (const language of ['fr', 'en'] as const) {
      const { description, collection } = POSTMAN_COLLECTIONS[audience][language];
      out.set(collection, await toPostmanCollection(read(`${dir}/${description}`), POSTMAN_TOKEN_VARIABLE[audience]));
    }
  }
  return out;
}
