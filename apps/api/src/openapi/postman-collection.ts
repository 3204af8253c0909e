/*
 * What the api needs of the Postman collections at run time: their file names and the base URL they
 * name. The converter that generates them (openapi-to-postmanv2, a devDependency) lives in
 * tools/scripts/postman-converter.ts, which the api never imports.
 */

/** A Postman collection (format v2.1) as JSON text. */
export type PostmanCollectionJson = string;

/**
 * The base URL the checked-in descriptions and collections name (`npm start`'s default, `PUBLIC_BASE_URL`
 * unset): the served copies name the instance's `PUBLIC_BASE_URL` instead (see `withBaseUrl`).
 */
export const DESCRIPTION_BASE_URL = 'http://127.0.0.1:3000';

/**
 * Replaces every occurrence of `DESCRIPTION_BASE_URL` (not followed by another digit, so `:30001` is
 * left alone) in a description or collection text by `baseUrl`, in its serialised WHATWG form without
 * trailing slash (percent-encoded: no quote, backslash or space can break the YAML or JSON text).
 * Identity when `baseUrl` is the default.
 */
export function withBaseUrl(text: string, baseUrl: string): string {
  const safe = URL.canParse(baseUrl) ? new URL(baseUrl).href.replace(/\/+$/, '') : encodeURI(baseUrl);
  if (safe === DESCRIPTION_BASE_URL) return text;
  return text.replace(/http:\/\/127\.0\.0\.1:3000(?![0-9])/g, () => safe);
}

/**
 * The checked-in collections (in `apps/api/openapi/`), generated from the descriptions by
 * `node -r @swc-node/register tools/scripts/generate-postman.ts` (tools/scripts/postman-converter.ts)
 * and served by OpenApiController (`/postman.json`, `/postman.en.json`, `/admin/postman.json`,
 * `/admin/postman.en.json`).
 */
export const POSTMAN_COLLECTIONS = {
  public: { fr: { description: 'openapi.fr.yaml', collection: 'postman.fr.json' }, en: { description: 'openapi.en.yaml', collection: 'postman.en.json' } },
  operator: {
    fr: { description: 'operator.fr.yaml', collection: 'postman.operator.fr.json' },
    en: { description: 'operator.en.yaml', collection: 'postman.operator.en.json' },
  },
} as const;

/** Collection variable holding the bearer token of each description's Postman collection. */
export const POSTMAN_TOKEN_VARIABLE = { public: 'apiKey', operator: 'adminToken' } as const;
