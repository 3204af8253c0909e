import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { LEAD_ACTOR } from '@leadflow/quotes-contracts';
import { Actor, DomainError } from '@leadflow/shared-kernel';
import { AcceptFormBody, RequestActor } from '@leadflow/shared-platform';
import { ApplyPublicQuoteActionCommand, GetPublicQuoteQuery, OpenPublicQuoteCommand, PublicQuote } from '@leadflow/quotes-core';
import { renderBadRequestPage, renderNotFoundPage, renderQuotePage } from './quote-page.renderer';

/** Headers of every page: the token is in the URL, so it must not leak (Referer, caches, indexes, frames). */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

/** The page's own form post: `application/x-www-form-urlencoded` with `confirm=<action>`. */
function confirmed(contentType: string | undefined, body: unknown, action: 'sign' | 'decline'): boolean {
  const form = typeof contentType === 'string' && contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
  return form && typeof body === 'object' && body !== null && (body as Record<string, unknown>).confirm === action;
}

/**
 * The lead's public quote page (operator-api › lead-actions, PUBLIC_BASE_URL): server-rendered HTML in
 * the quote's language, no authentication (the 256-bit token is the credential), outside `/v1` (not
 * part of the API description). `GET /q/{token}` marks a sent quote viewed; the Sign and Decline buttons
 * are HTML form posts (`application/x-www-form-urlencoded`, accepted on these two routes only) carrying
 * `confirm=sign` or `confirm=decline`, answered by 303 to the page itself (`GET /q/{token}`, which then
 * shows the quote signed or declined: post/redirect/get); any other body is a 400 page.
 * Unknown token or archived quote: 404 page; a refused action (already signed, declined, expired,
 * cancelled): 409 with the quote page showing its status.
 */
@Controller('q')
export class PublicQuotePageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @RequestActor(LEAD_ACTOR) lead: Actor, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.headers(PAGE_HEADERS);
    const found = await this.commands.execute(new OpenPublicQuoteCommand(token, lead));
    if (!found) return this.notFound(reply);
    return renderQuotePage(found, token);
  }

  @Post(':token/sign')
  @HttpCode(200)
  @AcceptFormBody()
  sign(
    @Param('token') token: string,
    @Headers('content-type') contentType: string | undefined,
    @Body() body: unknown,
    @RequestActor(LEAD_ACTOR) lead: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return this.act(token, 'sign', confirmed(contentType, body, 'sign'), lead, reply);
  }

  @Post(':token/decline')
  @HttpCode(200)
  @AcceptFormBody()
  decline(
    @Param('token') token: string,
    @Headers('content-type') contentType: string | undefined,
    @Body() body: unknown,
    @RequestActor(LEAD_ACTOR) lead: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return this.act(token, 'decline', confirmed(contentType, body, 'decline'), lead, reply);
  }

  private async act(token: string, action: 'sign' | 'decline', isConfirmed: boolean, lead: Actor, reply: FastifyReply): Promise<string> {
    void reply.headers(PAGE_HEADERS);
    if (!isConfirmed) {
      void reply.status(400);
      return renderBadRequestPage();
    }
    let done: PublicQuote | null;
    try {
      done = await this.commands.execute(new ApplyPublicQuoteActionCommand(token, action, lead));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const current = await this.queries.execute(new GetPublicQuoteQuery(token));
      if (!current) return this.notFound(reply);
      void reply.status(409);
      return renderQuotePage(current, token);
    }
    if (!done) return this.notFound(reply);
    // Post/redirect/get: 303 to the page itself, which shows the new state (a reload does not post again).
    void reply.status(303).header('Location', `/q/${encodeURIComponent(token)}`);
    return '';
  }

  private notFound(reply: FastifyReply): string {
    void reply.status(404);
    return renderNotFoundPage();
  }
}
