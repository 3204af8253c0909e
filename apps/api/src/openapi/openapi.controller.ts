import { Controller, Get, Header, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAlias, parseDocument, stringify, visit } from 'yaml';
import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '@leadflow/shared-platform';
import { DESCRIPTION_BASE_URL, POSTMAN_COLLECTIONS, withBaseUrl } from './postman-collection';

/** Where the checked-in descriptions live (`apps/api/openapi/`). */
export const OPENAPI_DIR = resolve(__dirname, '..', '..', 'openapi');

/**
 * The published descriptions, French by default with English variants (public-api-v1 › Versioning):
 * - `public`: the integrator's contract, `/v1/...` paths only;
 * - `operator`: everything else the service serves (operator API `/admin/v1`, `/health`, the public
 *   quote page, these document routes). Every registered route is in exactly one of the two.
 */
export const OPENAPI_DOCUMENTS = {
  public: { fr: 'openapi.fr.yaml', en: 'openapi.en.yaml' },
  operator: { fr: 'operator.fr.yaml', en: 'operator.en.yaml' },
} as const;
export type OpenApiAudience = keyof typeof OPENAPI_DOCUMENTS;
export type OpenApiLanguage = keyof (typeof OPENAPI_DOCUMENTS)['public'];

interface LoadedDocument {
  yaml: string;
  json: string;
}

/**
 * Reads and parses one description. Throws when the file is missing or is not a YAML mapping, so a
 * broken description is found at startup (logged) and by the tests, not by a client.
 *
 * `baseUrl` (the instance's `PUBLIC_BASE_URL`) replaces the base URL the file names
 * (`DESCRIPTION_BASE_URL`, `npm start`'s default) everywhere: `servers`, `info.contact.url`,
 * `externalDocs.url` and the examples, so the API reference and "try it" name this service.
 *
 * The served YAML is plain (issue 18, item 8): some YAML loaders refuse anchors and aliases (`&id001`,
 * `*id001`), so the file's text is served unchanged only when it has none; otherwise the parsed document
 * is re-emitted with every alias expanded (`aliasDuplicateObjects: false`), comments and layout lost.
 */
export function loadOpenApiDocument(audience: OpenApiAudience, language: OpenApiLanguage, dir = OPENAPI_DIR, baseUrl = DESCRIPTION_BASE_URL): LoadedDocument {
  const file = OPENAPI_DOCUMENTS[audience][language];
  const text = withBaseUrl(readFileSync(resolve(dir, file), 'utf8'), baseUrl);
  const parsed = parseDocument(text);
  if (parsed.errors.length > 0) throw parsed.errors[0];
  const document: unknown = parsed.toJS({ maxAliasCount: -1 });
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new Error(`${file} is not a YAML mapping`);
  }
  const yaml = usesAnchors(parsed) ? stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }) : text;
  return { yaml, json: JSON.stringify(document) };
}

/** True when the parsed YAML holds an anchor (`&name`) or an alias (`*name`). */
function usesAnchors(document: ReturnType<typeof parseDocument>): boolean {
  let found = false;
  visit(document, (_key, node) => {
    if (isAlias(node) || (node !== null && typeof node === 'object' && 'anchor' in node && typeof node.anchor === 'string')) {
      found = true;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

/**
 * Reads one checked-in Postman collection (`apps/api/openapi/postman*.json`, generated at build time by
 * `tools/scripts/generate-postman.ts`), its base URL replaced by `baseUrl`. Throws when the file is
 * missing or is not JSON.
 */
export function loadPostmanCollection(audience: OpenApiAudience, language: OpenApiLanguage, dir = OPENAPI_DIR, baseUrl = DESCRIPTION_BASE_URL): string {
  const text = withBaseUrl(readFileSync(resolve(dir, POSTMAN_COLLECTIONS[audience][language].collection), 'utf8'), baseUrl);
  return JSON.stringify(JSON.parse(text));
}

/**
 * Serves the OpenAPI 3.1 descriptions, each read and parsed once when the app starts (JSON is the YAML
 * parsed with the `yaml` package), naming the instance's `PUBLIC_BASE_URL` (servers, links, examples).
 * A description that could not be loaded answers 503 `service_unavailable` (and was logged at startup);
 * the API itself keeps working.
 *
 * - Public description (`/v1` paths only), no authentication: `/openapi.yaml`, `/openapi.json` (French),
 *   `/openapi.en.yaml`, `/openapi.en.json` (English); Postman collections `/postman.json`, `/postman.en.json`
 *   (public-api-v1 › Versioning: "a Postman collection is also served").
 * - Operator description (operator API, `/health`, quote page, these routes): `/admin/openapi.yaml`,
 *   `/admin/openapi.json`, `/admin/openapi.en.yaml`, `/admin/openapi.en.json`, Postman collections
 *   `/admin/postman.json`, `/admin/postman.en.json`. Under `/admin`, so the request guard treats them like
 *   the operator API: 404 `not_found` while `ADMIN_TOKEN` is unset, 401 `invalid_admin_token` without
 *   `Authorization: Bearer <ADMIN_TOKEN>` (README › Decisions › Two OpenAPI descriptions).
 *
 * Collections are generated at build time (`tools/scripts/generate-postman.ts`, checked in beside the
 * descriptions; `postman-collections.spec.ts` fails when one is stale), read once at start with their
 * `baseUrl` variable set to `PUBLIC_BASE_URL`; one that could not be read answers 503.
 */
@Controller()
export class OpenApiController {
  private readonly logger = new Logger(OpenApiController.name);
  private readonly documents = new Map<string, LoadedDocument>();
  private readonly collections = new Map<string, string>();

  constructor(config: AppConfig) {
    for (const audience of Object.keys(OPENAPI_DOCUMENTS) as OpenApiAudience[]) {
      for (const language of Object.keys(OPENAPI_DOCUMENTS[audience]) as OpenApiLanguage[]) {
        try {
          this.documents.set(`${audience}:${language}`, loadOpenApiDocument(audience, language, OPENAPI_DIR, config.publicBaseUrl));
        } catch (error) {
          this.logger.error({ err: error }, `OpenAPI description ${OPENAPI_DOCUMENTS[audience][language]} could not be loaded`);
        }
        try {
          this.collections.set(`${audience}:${language}`, loadPostmanCollection(audience, language, OPENAPI_DIR, config.publicBaseUrl));
        } catch (error) {
          this.logger.error({ err: error }, `Postman collection ${POSTMAN_COLLECTIONS[audience][language].collection} could not be loaded`);
        }
      }
    }
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  frenchYaml(): string {
    return this.document('public', 'fr').yaml;
  }

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  frenchJson(): string {
    return this.document('public', 'fr').json;
  }

  @Get('openapi.en.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  englishYaml(): string {
    return this.document('public', 'en').yaml;
  }

  @Get('openapi.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  englishJson(): string {
    return this.document('public', 'en').json;
  }

  @Get('postman.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  frenchPostman(): string {
    return this.collection('public', 'fr');
  }

  @Get('postman.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  englishPostman(): string {
    return this.collection('public', 'en');
  }

  @Get('admin/openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  operatorFrenchYaml(): string {
    return this.document('operator', 'fr').yaml;
  }

  @Get('admin/openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  operatorFrenchJson(): string {
    return this.document('operator', 'fr').json;
  }

  @Get('admin/openapi.en.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  operatorEnglishYaml(): string {
    return this.document('operator', 'en').yaml;
  }

  @Get('admin/openapi.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  operatorEnglishJson(): string {
    return this.document('operator', 'en').json;
  }

  @Get('admin/postman.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  operatorFrenchPostman(): string {
    return this.collection('operator', 'fr');
  }

  @Get('admin/postman.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  operatorEnglishPostman(): string {
    return this.collection('operator', 'en');
  }

  private collection(audience: OpenApiAudience, language: OpenApiLanguage): string {
    const collection = this.collections.get(`${audience}:${language}`);
    if (collection === undefined) {
      throw new DomainError('service_unavailable', 'The Postman collection is temporarily unavailable.', null, { headers: { 'Retry-After': '60' } });
    }
    return collection;
  }

  private document(audience: OpenApiAudience, language: OpenApiLanguage): LoadedDocument {
    const document = this.documents.get(`${audience}:${language}`);
    if (!document) {
      throw new DomainError('service_unavailable', 'The OpenAPI description is temporarily unavailable.', null, {
        headers: { 'Retry-After': '60' },
      });
    }
    return document;
  }
}
