import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, renderDomainError, sendError, toDomainError } from '@leadflow/shared-platform';
import { CONSOLE_TEXT, consoleLanguage } from './console-i18n';
import { CONSOLE_PAGE_HEADERS } from './console-http';
import { renderErrorPage } from './console-pages';

/**
 * Errors of the console routes as HTML pages in the page's language (status of the error catalogue:
 * 404 unknown account or key, 400 refused input, 503 PostgreSQL or Redis unreachable, 500 with the
 * request id). While `ADMIN_TOKEN` is unset the console does not exist: the JSON 404 envelope of every
 * unknown route, like `/admin`.
 */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  constructor(private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) return;
    const error = toDomainError(exception, this.logger, request);
    if (!this.config.adminToken) return sendError(reply, request, error, this.config.publicBaseUrl);
    const rendered = renderDomainError(error, String(request.id), this.config.publicBaseUrl);
    const lang = consoleLanguage(request.query);
    const t = CONSOLE_TEXT[lang];
    const [title, message] =
      rendered.status === 404
        ? [t.notFoundTitle, t.notFound]
        : rendered.status === 503
          ? [t.errorTitle, t.unavailable]
          : rendered.status >= 500
            ? [t.errorTitle, t.internal]
            : [rendered.status === 400 ? t.invalidTitle : t.errorTitle, error.message];
    request.leadflow ??= {};
    request.leadflow.error = error;
    for (const [name, value] of Object.entries(rendered.headers)) void reply.header(name, value);
    void reply
      .status(rendered.status)
      .headers(CONSOLE_PAGE_HEADERS)
      .send(renderErrorPage(lang, null, title, message, String(request.id)));
  }
}
