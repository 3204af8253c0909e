import { Controller, Get, Header, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAlias, parseDocument, stringify, visit } from 'yaml';
import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '@leadflow/shared-platform';
import { toPostmanCollection } from './postman-collection';

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
 * The served YAML is plain (issue 18, item 8): some YAML loaders refuse anchors and aliases (`&id001`,
 * `*id001`), so the file's text is served unchanged only when it has none; otherwise the parsed document
 * is re-emitted with every alias expanded (`aliasDuplicateObjects: false`), comments and layout lost.
 */
export function loadOpenApiDocument(audience: OpenApiAudience, language: OpenApiLanguage, dir = OPENAPI_DIR): LoadedDocument {
  const file = OPENAPI_DOCUMENTS[audience][language];
  const text = readFileSync(resolve(dir, file), 'utf8');
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

/** Collection variable holding the bearer token of each description's Postman collection. */
const POSTMAN_TOKEN_VARIABLE: Record<OpenApiAudience, string> = { public: 'apiKey', operator: 'adminToken' };

/**
 * Serves the OpenAPI 3.1 descriptions, each read and parsed once when the app starts (JSON is the YAML
 * parsed with the `yaml` package). A description that could not be loaded answers 503
 * `service_unavailable` (and was logged at startup); the API itself keeps working.
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
 * Collections are converted from the YAML on the first request and cached (see `toPostmanCollection`);
 * a failed conversion answers 503 and is retried on the next request.
 */
@Controller()
export class OpenApiController {
  private readonly logger = new Logger(OpenApiController.name);
  private readonly documents = new Map<string, LoadedDocument>();
  private readonly collections = new Map<string, Promise<string>>();

  constructor(private readonly config: AppConfig) {
    for (const audience of Object.keys(OPENAPI_DOCUMENTS) as OpenApiAudience[]) {
      for (const language of Object.keys(OPENAPI_DOCUMENTS[audience]) as OpenApiLanguage[]) {
        try {
          this.documents.set(`${audience}:${language}`, loadOpenApiDocument(audience, language));
        } catch (error) {
          this.logger.error({ err: error }, `OpenAPI description ${OPENAPI_DOCUMENTS[audience][language]} could not be loaded`);
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
  frenchPostman(): Promise<string> {
    return this.collection('public', 'fr');
  }

  @Get('postman.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  englishPostman(): Promise<string> {
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
  operatorFrenchPostman(): Promise<string> {
    return this.collection('operator', 'fr');
  }

  @Get('admin/postman.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  operatorEnglishPostman(): Promise<string> {
    return this.collection('operator', 'en');
  }

  private async collection(audience: OpenApiAudience, language: OpenApiLanguage): Promise<string> {
    const { yaml } = this.document(audience, language);
    const key = `${audience}:${language}`;
    let pending = this.collections.get(key);
    if (!pending) {
      pending = toPostmanCollection(yaml, this.config.publicBaseUrl, POSTMAN_TOKEN_VARIABLE[audience]);
      this.collections.set(key, pending);
    }
    try {
      return await pending;
    } catch (error) {
      this.collections.delete(key);
      this.logger.error({ err: error }, `Postman collection (${audience}, ${language}) could not be generated`);
      throw new DomainError('service_unavailable', 'The Postman collection is temporarily unavailable.', null, { headers: { 'Retry-After': '60' } });
    }
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
