import { Body, Controller, Get, Header, HttpCode, Logger, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccountView,
  ApiKeySummaryView,
  CreateApiKeyCommand,
  GetAccountQuery,
  IssuedApiKey,
  ListAccountsQuery,
  ListApiKeysQuery,
  PRESETS,
  PresetName,
  RevokeApiKeyCommand,
} from '@leadflow/accounts-contracts';
import { ListAccountActivityQuery } from '@leadflow/operator-core';
import { Actor, asAccountId, AccountId, Clock, DomainError, ResourceNotFoundError } from '@leadflow/shared-kernel';
import { AcceptFormBody, AppConfig, CurrentOperatorActor, readPageRequest, TransactionHost } from '@leadflow/shared-platform';
import { GetAccountUsageQuery, GetUsageQuery } from '@leadflow/usage-contracts';
import { ListWebhookDeliveriesQuery, ListAccountWebhookSubscriptionsQuery, RedeliverWebhookDeliveryCommand } from '@leadflow/webhooks-contracts';
import { accountIdParam, UuidOr404Pipe } from '../http/uuid-or-404.pipe';
import { CONSOLE_SCRIPT, CONSOLE_STYLE, loadChartJsBundle } from './console-assets';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { consoleUrl } from './console-html';
import {
  CONSOLE_PAGE_HEADERS,
  consoleCookie,
  formFields,
  LOGIN_COOKIE,
  LOGIN_COOKIE_TTL_SECONDS,
  readCookie,
  sameSecret,
  SESSION_COOKIE,
} from './console-http';
import { CONSOLE_TEXT, ConsoleLanguage, consoleLanguage } from './console-i18n';
import {
  AccountPageData,
  ConsoleSubscription,
  PageContext,
  renderAccountPage,
  renderAccountsPage,
  renderActivityPage,
  renderDeliveriesPage,
  renderKeyCreatedPage,
  renderKeyPage,
  renderErrorPage,
  renderLoginPage,
} from './console-pages';
import { CONSOLE_SESSION_TTL_SECONDS, ConsoleSession, ConsoleSessionStore, randomToken } from './console-session.store';
import { toUsageSeries, usageHours, usageWindow } from './console-usage';

/** Rows of the account page's delivery and activity previews; the full lists page by 50. */
const PREVIEW_ROWS = 10;
const LIST_PAGE = 50;
/** A key name: 1 to 200 characters, none a control character or an unpaired surrogate (PostgreSQL could not store it). */
const KEY_NAME = /^[^\p{Cc}\p{Cs}]{1,200}$/u;

const deliveryIdParam = () => new UuidOr404Pipe('webhook_delivery', 'No such webhook delivery.');
const keyIdParam = () => new UuidOr404Pipe('api_key', 'No such API key.');

/**
 * The operator console (issue 17, item 6; README › Operator console): server-rendered pages over the
 * operator context, served by the api at `/console` while `ADMIN_TOKEN` is set (otherwise every
 * `/console` path is the JSON 404 of an unknown route, like `/admin`). French by default, English with
 * `?lang=en` (every link, form and redirect keeps it).
 *
 * Security model:
 * - Login (`POST /console/login`) with the admin token, compared in constant time (sha256 digests);
 *   10 wrong tokens per client address in 10 minutes and the login answers 429, the right token
 *   included, until the window ends (checked before comparing).
 * - The session is an opaque random id in the cookie `lf_console_session` (`HttpOnly`, `SameSite=Strict`,
 *   `Path=/console`, `Secure` over https incl. `X-Forwarded-Proto` from a TRUST_PROXY proxy), kept in
 *   Redis for 8 hours ({@link ConsoleSessionStore}); the admin token never leaves the login form.
 * - CSRF: SameSite=Strict, plus a synchronizer token per session in every form, checked on every POST
 *   (missing or wrong: 403 page, nothing done); the login form uses a double-submit cookie.
 * - Pages: helmet's CSP (`script-src 'self'`: Chart.js and the console script are served from here, no
 *   inline script), `no-store`, no framing, no indexing. Every interpolated value is HTML-escaped.
 *
 * Reads and writes go through the published queries and commands of the contexts (accounts, usage,
 * webhooks, operator), as the operator API does: no SQL here.
 */
@Controller('console')
@UseFilters(ConsoleExceptionFilter)
export class ConsoleController {
  private readonly logger = new Logger('Console');
  private chartJs: string | null | undefined;

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly transactions: TransactionHost,
    private readonly sessions: ConsoleSessionStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  // ---------- assets (no session needed; 404 while the console is off) ----------

  @Get('assets/chart.umd.min.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  chartBundle(): string {
    this.enabled();
    if (this.chartJs === undefined) {
      try {
        this.chartJs = loadChartJsBundle();
      } catch (error) {
        this.logger.error({ err: error }, "Chart.js's bundle could not be read");
        this.chartJs = null;
      }
    }
    if (this.chartJs === null) throw new DomainError('service_unavailable', 'The chart library is unavailable.', null, { headers: { 'Retry-After': '60' } });
    return this.chartJs;
  }

  @Get('assets/console.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  script(): string {
    this.enabled();
    return CONSOLE_SCRIPT;
  }

  @Get('assets/console.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  style(): string {
    this.enabled();
    return CONSOLE_STYLE;
  }

  // ---------- login and logout ----------

  /** The login form; a live session goes straight to the accounts. Sets the login form's CSRF cookie. */
  @Get('login')
  async loginForm(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: unknown): Promise<string | void> {
    this.enabled();
    const lang = consoleLanguage(query);
    if (await this.sessionOf(request)) return this.redirect(reply, consoleUrl(lang, ''));
    return this.loginPage(request, reply, lang, 200, null);
  }

  /**
   * The admin token (`token`) and the login CSRF token (`csrf`, equal to the `lf_console_login` cookie:
   * else 403). 429 after 10 wrong tokens from the address within 10 minutes (`Retry-After`); a wrong
   * token 401; the right one opens a session and answers 303 to the accounts.
   */
  @Post('login')
  @AcceptFormBody()
  @HttpCode(200)
  async login(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: unknown, @Body() body: unknown): Promise<string | void> {
    const adminToken = this.enabled();
    const t = CONSOLE_TEXT[consoleLanguage(query)];
    const lang = consoleLanguage(query);
    const form = formFields(body);
    const cookie = readCookie(request, LOGIN_COOKIE);
    if (cookie === undefined || !sameSecret(form.csrf, cookie)) return this.loginPage(request, reply, lang, 403, t.csrfRefused);
    const attempt = await this.sessions.mayTryLogin(request.ip);
    if (!attempt.allowed) {
      void reply.header('Retry-After', String(attempt.retryAfterSeconds));
      return this.loginPage(request, reply, lang, 429, t.tooManyAttempts(attempt.retryAfterSeconds));
    }
    if (!sameSecret(form.token, adminToken)) {
      await this.sessions.recordFailure(request.ip);
      this.logger.warn({ ip: request.ip, request_id: request.id }, 'Console login refused');
      return this.loginPage(request, reply, lang, 401, t.wrongToken);
    }
    const session = await this.sessions.open();
    void reply.header('set-cookie', [
      consoleCookie(request, SESSION_COOKIE, session.id, CONSOLE_SESSION_TTL_SECONDS),
      consoleCookie(request, LOGIN_COOKIE, '', 0),
    ]);
    this.logger.log({ ip: request.ip, request_id: request.id }, 'Console login');
    return this.redirect(reply, consoleUrl(lang, ''));
  }

  /** Closes the session (its CSRF token required) and answers 303 to the login form. */
  @Post('logout')
  @AcceptFormBody()
  @HttpCode(200)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: unknown, @Body() body: unknown): Promise<string | void> {
    const context = await this.authorisePost(request, reply, query, body);
    if (!context) return this.refused(reply, request, query);
    await this.sessions.close(context.session.id);
    void reply.header('set-cookie', consoleCookie(request, SESSION_COOKIE, '', 0));
    return this.redirect(reply, consoleUrl(context.lang, '/login'));
  }

  // ---------- pages ----------

  /** The accounts, newest first, 50 a page (`cursor`). */
  @Get()
  async accounts(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: Record<string, unknown>): Promise<string | void> {
    const context = await this.authoriseGet(request, reply, query);
    if (!context) return;
    const page = await this.queries.execute(new ListAccountsQuery(readPageRequest({ cursor: query.cursor }, LIST_PAGE, LIST_PAGE)));
    return this.page(reply, renderAccountsPage(context, page));
  }

  /** One account: settings, keys, usage charts (`hours` 24, 72 or 168), webhooks, recent activity. */
  @Get('accounts/:account_id')
  async account(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<string | void> {
    const context = await this.authoriseGet(request, reply, query);
    if (!context) return;
    const t = CONSOLE_TEXT[context.lang];
    const done = query.done === 'revoked' ? t.revoked : query.done === 'redelivered' ? t.redelivered : null;
    const data = await this.accountPageData(context.lang, asAccountId(accountId), usageHours(query));
    return this.page(reply, renderAccountPage(context, { ...data, notice: done ? { kind: 'ok', message: done } : null }));
  }

  /** Creates a key from a preset (`name`, `preset`, optional `per_hour`): 200 with the raw key, shown this once. */
  @Post('accounts/:account_id/api-keys')
  @AcceptFormBody()
  @HttpCode(200)
  async createKey(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Query() query: unknown,
    @Body() body: unknown,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<string | void> {
    const context = await this.authorisePost(request, reply, query, body);
    if (!context) return this.refused(reply, request, query);
    const account = asAccountId(accountId);
    const t = CONSOLE_TEXT[context.lang];
    const form = formFields(body);
    const name = (form.name ?? '').trim();
    const perHourText = (form.per_hour ?? '').trim();
    const perHour = perHourText === '' ? null : /^\d{1,7}$/.test(perHourText) ? Number(perHourText) : NaN;
    const problem = !KEY_NAME.test(name)
      ? 'name'
      : !Object.prototype.hasOwnProperty.call(PRESETS, form.preset ?? '')
        ? 'preset'
        : perHour !== null && !(perHour >= 1 && perHour <= 1_000_000)
          ? 'per_hour'
          : null;
    if (problem) return this.accountWithError(reply, context, account, 400, t.fieldErrors[problem] ?? problem);
    let issued: IssuedApiKey;
    try {
      issued = await this.transactions.run(() =>
        this.commands.execute(new CreateApiKeyCommand(account, { name, preset: form.preset as PresetName, perHour }, actor)),
      );
    } catch (error) {
      // 409 duplicate_resource (a live key has the name), 400 validation_error: the account page with the reason.
      if (error instanceof DomainError && !(error instanceof ResourceNotFoundError) && error.code !== 'not_found') {
        return this.accountWithError(reply, context, account, this.statusOf(error), error.message);
      }
      throw error;
    }
    const view = await this.accountOr404(account);
    return this.page(reply, renderKeyCreatedPage(context, view, name, issued));
  }

  /** Revokes a key (it stops authenticating at once) and answers 303 to the account page. */
  @Post('accounts/:account_id/api-keys/:key_id/revoke')
  @AcceptFormBody()
  @HttpCode(200)
  async revokeKey(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('key_id', keyIdParam()) keyId: string,
    @Query() query: unknown,
    @Body() body: unknown,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<string | void> {
    const context = await this.authorisePost(request, reply, query, body);
    if (!context) return this.refused(reply, request, query);
    await this.transactions.run(() => this.commands.execute(new RevokeApiKeyCommand(asAccountId(accountId), keyId, actor)));
    return this.redirect(reply, consoleUrl(context.lang, `/accounts/${accountId}`, { done: 'revoked' }));
  }

  /** One key: its facts and usage charts (`hours` 24, 72 or 168). 404 when not the account's key. */
  @Get('accounts/:account_id/api-keys/:key_id')
  async key(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('key_id', keyIdParam()) keyId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<string | void> {
    const context = await this.authoriseGet(request, reply, query);
    if (!context) return;
    const account = asAccountId(accountId);
    const view = await this.accountOr404(account);
    const keys: ApiKeySummaryView[] = await this.queries.execute(new ListApiKeysQuery(account));
    const key = keys.find((candidate) => candidate.id === keyId);
    if (!key) throw new ResourceNotFoundError('not_found', 'No such API key.', { resource: 'api_key' });
    const hours = usageHours(query);
    const window = usageWindow(this.clock.now(), hours);
    const usage = await this.queries.execute(new GetUsageQuery(account, keyId, window.from, window.to, 'hour'));
    const series = toUsageSeries('key', window, usage.buckets, usage.totals, this.seriesLabels(context.lang));
    return this.page(reply, renderKeyPage(context, view, key, series, hours));
  }

  /** Every webhook delivery of the account, newest first, 50 a page (`cursor`). */
  @Get('accounts/:account_id/webhook-deliveries')
  async deliveries(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<string | void> {
    const context = await this.authoriseGet(request, reply, query);
    if (!context) return;
    const account = asAccountId(accountId);
    const view = await this.accountOr404(account);
    const page = await this.queries.execute(new ListWebhookDeliveriesQuery(account, readPageRequest({ cursor: query.cursor }, LIST_PAGE, LIST_PAGE)));
    return this.page(reply, renderDeliveriesPage(context, view, page, true));
  }

  /**
   * A new attempt of a delivery now (the webhooks context's `RedeliverWebhookDeliveryCommand`), then 303
   * to the account page. 404 when not the account's delivery; a refusal (422 `webhook_disabled`) as a page.
   */
  @Post('accounts/:account_id/webhook-deliveries/:delivery_id/redeliver')
  @AcceptFormBody()
  @HttpCode(200)
  async redeliver(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('delivery_id', deliveryIdParam()) deliveryId: string,
    @Query() query: unknown,
    @Body() body: unknown,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<string | void> {
    const context = await this.authorisePost(request, reply, query, body);
    if (!context) return this.refused(reply, request, query);
    const account = asAccountId(accountId);
    try {
      await this.transactions.run(() => this.commands.execute(new RedeliverWebhookDeliveryCommand(account, deliveryId, null, actor)));
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'not_found') return this.accountWithError(reply, context, account, this.statusOf(error), error.message);
      throw error;
    }
    return this.redirect(reply, consoleUrl(context.lang, `/accounts/${accountId}`, { done: 'redelivered' }));
  }

  /** The account's activity-log and timeline entries, newest first, 50 a page (`cursor`). */
  @Get('accounts/:account_id/activity')
  async activity(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('account_id', accountIdParam()) accountId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<string | void> {
    const context = await this.authoriseGet(request, reply, query);
    if (!context) return;
    const account = asAccountId(accountId);
    const view = await this.accountOr404(account);
    const page = await this.queries.execute(
      new ListAccountActivityQuery(account, { contactId: null, type: null }, readPageRequest({ cursor: query.cursor }, LIST_PAGE, LIST_PAGE)),
    );
    return this.page(reply, renderActivityPage(context, view, page));
  }

  // ---------- helpers ----------

  /** The admin token; 404 (JSON, like an unknown route) while the console is off. */
  private enabled(): string {
    const token = this.config.adminToken;
    if (!token) throw new DomainError('not_found', 'No such route.', null);
    return token;
  }

  private async sessionOf(request: FastifyRequest): Promise<ConsoleSession | null> {
    return this.sessions.find(readCookie(request, SESSION_COOKIE));
  }

  /** A GET page's context, or null after answering 303 to the login form (no or expired session). */
  private async authoriseGet(request: FastifyRequest, reply: FastifyReply, query: unknown): Promise<(PageContext & { session: ConsoleSession }) | null> {
    this.enabled();
    const lang = consoleLanguage(query);
    const session = await this.sessionOf(request);
    if (!session) {
      this.redirect(reply, consoleUrl(lang, '/login'));
      return null;
    }
    return { lang, csrf: session.csrf, session };
  }

  /**
   * A POST's context when the session is live and the form's `csrf` is the session's token; null
   * otherwise (see {@link refused}: 401 without a session, 403 with a wrong or missing token).
   */
  private async authorisePost(request: FastifyRequest, _reply: FastifyReply, query: unknown, body: unknown): Promise<(PageContext & { session: ConsoleSession }) | null> {
    this.enabled();
    const session = await this.sessionOf(request);
    (request as FastifyRequest & { consoleSession?: ConsoleSession | null }).consoleSession = session;
    if (!session || !sameSecret(formFields(body).csrf, session.csrf)) return null;
    return { lang: consoleLanguage(query), csrf: session.csrf, session };
  }

  /** A refused POST: 401 with the login form when there is no session, 403 when the CSRF token is missing or wrong. Nothing is done. */
  private refused(reply: FastifyReply, request: FastifyRequest, query: unknown): string {
    const lang = consoleLanguage(query);
    const t = CONSOLE_TEXT[lang];
    const session = (request as FastifyRequest & { consoleSession?: ConsoleSession | null }).consoleSession;
    this.logger.warn({ request_id: request.id, path: request.url, session: session ? 'live' : 'none' }, 'Console form refused');
    if (!session) return this.loginPage(request, reply, lang, 401, t.sessionExpired);
    void reply.status(403);
    return this.page(reply, renderErrorPage(lang, null, t.errorTitle, t.csrfRefused, String(request.id)));
  }

  /** The login form (status given) with a fresh login CSRF token in its form and cookie. */
  private loginPage(request: FastifyRequest, reply: FastifyReply, lang: ConsoleLanguage, status: number, error: string | null): string {
    const token = randomToken();
    void reply.header('set-cookie', consoleCookie(request, LOGIN_COOKIE, token, LOGIN_COOKIE_TTL_SECONDS));
    void reply.status(status);
    return this.page(reply, renderLoginPage(lang, token, error));
  }

  private page(reply: FastifyReply, html: string): string {
    void reply.headers(CONSOLE_PAGE_HEADERS);
    return html;
  }

  private redirect(reply: FastifyReply, location: string): void {
    void reply.status(303).headers({ location, 'cache-control': 'no-store' });
  }

  private statusOf(error: DomainError): number {
    return error.options.status ?? (error.code === 'duplicate_resource' ? 409 : 400);
  }

  private async accountOr404(accountId: AccountId): Promise<AccountView> {
    const account = await this.queries.execute(new GetAccountQuery(accountId));
    if (!account) throw new ResourceNotFoundError('not_found', 'No such account.', { resource: 'account' });
    return account;
  }

  private seriesLabels(lang: ConsoleLanguage) {
    const t = CONSOLE_TEXT[lang];
    return { requests: t.requests, unknown: t.unknown, rate_limited: t.rateLimited };
  }

  /** Everything the account page shows, read through the contexts' published queries (in parallel). */
  private async accountPageData(lang: ConsoleLanguage, accountId: AccountId, hours: number): Promise<Omit<AccountPageData, 'notice'>> {
    const account = await this.accountOr404(accountId);
    const window = usageWindow(this.clock.now(), hours);
    const [keys, usage, subscriptions, deliveries, activity] = await Promise.all([
      this.queries.execute(new ListApiKeysQuery(accountId)),
      this.queries.execute(new GetAccountUsageQuery(accountId, window.from, window.to, 'hour')),
      this.subscriptions(accountId),
      this.queries.execute(new ListWebhookDeliveriesQuery(accountId, { limit: PREVIEW_ROWS, after: null })),
      this.queries.execute(new ListAccountActivityQuery(accountId, { contactId: null, type: null }, { limit: PREVIEW_ROWS, after: null })),
    ]);
    return {
      account,
      keys,
      usage: toUsageSeries('account', window, usage.buckets, usage.totals, this.seriesLabels(lang)),
      hours,
      subscriptions,
      deliveries,
      activity,
      canRedeliver: true,
    };
  }

  /** The account's webhook subscriptions (the webhooks context's published query). */
  private subscriptions(accountId: AccountId): Promise<ConsoleSubscription[]> {
    return this.queries.execute(new ListAccountWebhookSubscriptionsQuery(accountId));
  }

  /** The account page again, with a refused input's reason (400, 409) above the keys. */
  private async accountWithError(reply: FastifyReply, context: PageContext, accountId: AccountId, status: number, message: string): Promise<string> {
    const data = await this.accountPageData(context.lang, accountId, usageHours({}));
    void reply.status(status);
    return this.page(reply, renderAccountPage(context, { ...data, notice: { kind: 'error', message } }));
  }
}
