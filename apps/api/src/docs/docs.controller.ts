import { Controller, Get, Header, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DomainError } from '@leadflow/shared-kernel';
import { renderChangelog, renderErrorCatalogue } from './docs-pages';

/** The repository's `CHANGELOG.md`. */
export const CHANGELOG_FILE = resolve(__dirname, '..', '..', '..', '..', 'CHANGELOG.md');

/**
 * The developer documentation pages (issue 16), server-rendered HTML built once at start, no API key,
 * no external resource (inline style only), the security headers of every response:
 * - `GET /docs/errors` (French) and `GET /docs/en/errors` (English): the error catalogue, one
 *   `<section id="<code>">` per code, where every envelope's `doc_url` (`/docs/errors#<code>`) points;
 * - `GET /docs/changelog`: `CHANGELOG.md` rendered as HTML (503 `service_unavailable` if it could not be read).
 */
@Controller('docs')
export class DocsController {
  private readonly logger = new Logger(DocsController.name);
  private readonly errorsFr = renderErrorCatalogue('fr');
  private readonly errorsEn = renderErrorCatalogue('en');
  private readonly changelog: string | null;

  constructor() {
    let changelog: string | null = null;
    try {
      changelog = renderChangelog(readFileSync(CHANGELOG_FILE, 'utf8'));
    } catch (error) {
      this.logger.error({ err: error }, 'CHANGELOG.md could not be read');
    }
    this.changelog = changelog;
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
