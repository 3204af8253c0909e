import { Controller, Get, Header, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DomainError } from '@leadflow/shared-kernel';
import { renderApiReference, renderChangelog, renderErrorCatalogue } from './docs-pages';

/** Where Redoc's image of its "API docs by Redocly" link points (a CDN): replaced by an inline empty image. */
const REDOC_LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/**
 * Redoc's standalone bundle from the `redoc` package (exact version in package.json), read once, with
 * its only run-time external reference (the logo above) made inline, so the page fetches nothing
 * outside the api. Throws when the package is missing.
 */
export function loadRedocBundle(): string {
  return readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').split(REDOC_LOGO_URL).join(EMPTY_IMAGE);
}

/** The repository's `CHANGELOG.md`. */
export const CHANGELOG_FILE = resolve(__dirname, '..', '..', '..', '..', 'CHANGELOG.md');

/**
 * The developer documentation pages (issue 16), server-rendered HTML built once at start, no API key,
 * no external resource (inline style only), the security headers of every response:
 * - `GET /docs/errors` (French) and `GET /docs/en/errors` (English): the error catalogue, one
 *   `<section id="<code>">` per code, where every envelope's `doc_url` (`/docs/errors#<code>`) points;
 * - `GET /docs/changelog`: `CHANGELOG.md` rendered as HTML (503 `service_unavailable` if it could not be read);
 * - `GET /docs` (French) and `GET /docs/en` (English): the API reference, Redoc rendering the served public
 *   description, its bundle served at `GET /docs/redoc.standalone.js` (503 if the package could not be read).
 */
@Controller('docs')
export class DocsController {
  private readonly logger = new Logger(DocsController.name);
  private readonly errorsFr = renderErrorCatalogue('fr');
  private readonly errorsEn = renderErrorCatalogue('en');
  private readonly referenceFr = renderApiReference('fr');
  private readonly referenceEn = renderApiReference('en');
  private readonly changelog: string | null;
  private readonly redoc: string | null;

  constructor() {
    let redoc: string | null = null;
    try {
      redoc = loadRedocBundle();
    } catch (error) {
      this.logger.error({ err: error }, "Redoc's standalone bundle could not be read");
    }
    this.redoc = redoc;
    let changelog: string | null = null;
    try {
      changelog = renderChangelog(readFileSync(CHANGELOG_FILE, 'utf8'));
    } catch (error) {
      this.logger.error({ err: error }, 'CHANGELOG.md could not be read');
    }
    this.changelog = changelog;
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  frenchReference(): string {
    return this.referenceFr;
  }

  @Get('en')
  @Header('Content-Type', 'text/html; charset=utf-8')
  englishReference(): string {
    return this.referenceEn;
  }

  @Get('redoc.standalone.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  redocBundle(): string {
    if (this.redoc === null) {
      throw new DomainError('service_unavailable', 'The API reference renderer is temporarily unavailable.', null, { headers: { 'Retry-After': '60' } });
    }
    return this.redoc;
  }

  @Get('errors')
  @Header('Content-Type', 'text/html; charset=utf-8')
  frenchErrors(): string {
    return this.errorsFr;
  }

  @Get('en/errors')
  @Header('Content-Type', 'text/html; charset=utf-8')
  englishErrors(): string {
    return this.errorsEn;
  }

  @Get('changelog')
  @Header('Content-Type', 'text/html; charset=utf-8')
  changelogPage(): string {
    if (this.changelog === null) {
      throw new DomainError('service_unavailable', 'The changelog is temporarily unavailable.', null, { headers: { 'Retry-After': '60' } });
    }
    return this.changelog;
  }
}
