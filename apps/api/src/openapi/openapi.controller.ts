import { Controller, Get, Header, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { DomainError } from '@leadflow/shared-kernel';

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
 */
@Controller()
export class OpenApiController {
  private readonly logger = new Logger(OpenApiController.name);
  private readonly documents = new Map<OpenApiLanguage, LoadedDocument>();

  constructor() {
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
