import { Controller, Get, Header, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '@leadflow/shared-platform';
import { toPostmanCollection } from './postman-collection';

/** Where the checked-in descriptions live (`apps/api/openapi/`). */
export const OPENAPI_DIR = resolve(__dirname, '..', '..', 'openapi');

/** The published descriptions (public-api-v1 › Versioning): French by default, English variants. */
export const OPENAPI_DOCUMENTS = { fr: 'openapi.fr.yaml', en: 'openapi.en.yaml' } as const;
export type OpenApiLanguage = keyof typeof OPENAPI_DOCUMENTS;

interface LoadedDocument {
  yaml: string;
  json: string;
}

/**
 * Reads and parses one description. Throws when the file is missing or is not a YAML mapping, so a
 * broken description is found at startup (logged) and by the tests, not by a client.
 */
export function loadOpenApiDocument(language: OpenApiLanguage, dir = OPENAPI_DIR): LoadedDocument {
  const yaml = readFileSync(resolve(dir, OPENAPI_DOCUMENTS[language]), 'utf8');
  const document: unknown = parse(yaml);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new Error(`${OPENAPI_DOCUMENTS[language]} is not a YAML mapping`);
  }
  return { yaml, json: JSON.stringify(document) };
}

/**
 * Serves the OpenAPI 3.1 descriptions without authentication: `/openapi.yaml` and `/openapi.json`
 * (French), `/openapi.en.yaml` and `/openapi.en.json` (English). Both files are read and parsed once,
 * when the app starts; JSON is the YAML parsed with the `yaml` package. A description that could not
 * be loaded answers 503 `service_unavailable` (and was logged at startup); the API itself keeps working.
 *
 * The Postman collections (public-api-v1 › Versioning: "a Postman collection is also served"):
 * `/postman.json` (French) and `/postman.en.json` (English), converted from the same descriptions on
 * the first request and cached (see `toPostmanCollection`); a failed conversion answers 503 and is
 * retried on the next request.
 */
@Controller()
export class OpenApiController {
  private readonly logger = new Logger(OpenApiController.name);
  private readonly documents = new Map<OpenApiLanguage, LoadedDocument>();
  private readonly collections = new Map<OpenApiLanguage, Promise<string>>();

  constructor(private readonly config: AppConfig) {
    for (const language of Object.keys(OPENAPI_DOCUMENTS) as OpenApiLanguage[]) {
      try {
        this.documents.set(language, loadOpenApiDocument(language));
      } catch (error) {
        this.logger.error({ err: error }, `OpenAPI description ${OPENAPI_DOCUMENTS[language]} could not be loaded`);
      }
    }
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  frenchYaml(): string {
    return this.document('fr').yaml;
  }

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  frenchJson(): string {
    return this.document('fr').json;
  }

  @Get('openapi.en.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  englishYaml(): string {
    return this.document('en').yaml;
  }

  @Get('openapi.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  englishJson(): string {
    return this.document('en').json;
  }

  @Get('postman.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  frenchPostman(): Promise<string> {
    return this.collection('fr');
  }

  @Get('postman.en.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  englishPostman(): Promise<string> {
    return this.collection('en');
  }

  private async collection(language: OpenApiLanguage): Promise<string> {
    const { yaml } = this.document(language);
    let pending = this.collections.get(language);
    if (!pending) {
      pending = toPostmanCollection(yaml, this.config.publicBaseUrl);
      this.collections.set(language, pending);
    }
    try {
      return await pending;
    } catch (error) {
      this.collections.delete(language);
      this.logger.error({ err: error }, `Postman collection (${language}) could not be generated`);
      throw new DomainError('service_unavailable', 'The Postman collection is temporarily unavailable.', null, { headers: { 'Retry-After': '60' } });
    }
  }

  private document(language: OpenApiLanguage): LoadedDocument {
    const document = this.documents.get(language);
    if (!document) {
      throw new DomainError('service_unavailable', 'The OpenAPI description is temporarily unavailable.', null, {
        headers: { 'Retry-After': '60' },
      });
    }
    return document;
  }
}
