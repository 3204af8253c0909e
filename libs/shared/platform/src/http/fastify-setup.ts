import { Logger } from '@nestjs/common';
import { RouteConfig, type NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions, RouteOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { scan as scanJson } from 'secure-json-parse';
import { Clock, DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { sendError, toDomainError } from './error-envelope.filter';
import { renderDomainError } from './error-envelope';
import { BODY_LIMIT_BYTES, LEGACY_DEPRECATED_AT, LEGACY_SUNSET, SERVICE_VERSION } from './http-contract.constants';
import { UsageRecorder } from './usage-recorder.port';
import { lazyRequestLogger } from '../logging/pino-logger';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** Longest request target (path and query string) served, in characters: longer ones answer 414 `uri_too_long`. */
export const MAX_URL_LENGTH = 8192;
/** Node's limit on the request line and headers together (bytes): beyond, 431 on a closed connection. */
const MAX_HEADER_BYTES = 16 * 1024;
const LEGACY_FLAG = Symbol('leadflow.legacy');

/**
 * Fastify server options of the api app: request ids, legacy-prefix rewriting, body limit, and
 * `frameworkErrors`, the envelope for what the router refuses before any hook runs (malformed URL,
 * FST_ERR_BAD_URL). Nest's own `frameworkErrors` passes those to the error handler of Fastify's default
 * route context, which is not the one Nest installs at `app.init()`: Fastify's own JSON body went out.
 */
export function fastifyServerOptions(config: Pick<AppConfig, 'publicBaseUrl' | 'trustProxy'>) {
  const logger = new Logger('Http');
  return {
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify refuses a longer path parameter by itself (414); up to this length a malformed id reaches
    // the handler, which answers like a missing resource (404), as the contract wants.
    routerOptions: { maxParamLength: 1024 },
    // Only the listed proxies' X-Forwarded-For is believed (TRUST_PROXY); by default the socket address counts.
    trustProxy: config.trustProxy,
    requestIdHeader: false as const,
    // One access line per request, written by installHttpContract's onResponse hook, instead of Fastify's two.
    // Request log lines name the request id `request_id`, like the worker's lines about the events it caused (issue 17, item 4).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    // request.log becomes a pino child only when it writes a line (lazyRequestLogger: no per-request redaction pass).
    childLoggerFactory: lazyRequestLogger as unknown as FastifyServerOptions['childLoggerFactory'],
    genReqId: (raw: IncomingMessage) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    rewriteUrl: (raw: IncomingMessage) => {
      const url = raw.url ?? '/';
      if (url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?')) {
        (raw as IncomingMessage & { [LEGACY_FLAG]?: boolean })[LEGACY_FLAG] = true;
        return url.slice('/api'.length);
      }
      return url;
    },
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => answerClientError(error, socket, config.publicBaseUrl),
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      request.leadflow ??= {};
      sendError(reply, request, toDomainError(error, logger, request), config.publicBaseUrl);
    },
  };
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (issue 12, item 6): the request line and
 * headers over 16 KiB (`HPE_HEADER_OVERFLOW`: 431 `request_header_fields_too_large`) or malformed HTTP
 * (400 `invalid_request`), answered with the error envelope and `Connection: close`, since the parser
 * cannot resume on that connection: a client reconnects instead of finding its next request reset.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket, publicBaseUrl: string): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return;
  const overflow = error.code === 'HPE_HEADER_OVERFLOW';
  const domain = overflow
    ? new DomainError('request_header_fields_too_large', `The request line and headers exceed ${MAX_HEADER_BYTES} bytes (the URL may be at most ${MAX_URL_LENGTH} characters).`, {
        max_bytes: MAX_HEADER_BYTES,
      })
    : new DomainError('invalid_request', 'The request is not valid HTTP/1.1.', { field: '', reason: 'malformed_request' });
  const requestId = randomUUID();
  const rendered = renderDomainError(domain, requestId, publicBaseUrl);
  const body = JSON.stringify(rendered.body);
  socket.end(
    [
      `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}`,
      'Connection: close',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-ID: ${requestId}`,
      `Service-Version: ${SERVICE_VERSION}`,
      '',
      body,
    ].join('\r\n'),
  );
}

/**
 * helmet's policy for this service (issue 12, item 9): nosniff, frame and referrer policies, a CSP that
 * lets the quote page's inline style through and does not force https (the api may be served over plain
 * http behind a terminating proxy), no HSTS (the TLS-terminating proxy sets it).
 */
const HELMET_OPTIONS: HelmetOptions = { hsts: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };

/**
 * The headers helmet sets with {@link HELMET_OPTIONS}, computed once at start by running its middleware
 * against a recording response: they depend on no request, so every response gets the same object in the
 * request hook instead of running the middleware per request (a measurable cost on the hot path).
 */
export const SECURITY_HEADERS: Record<string, string> = (() => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(HELMET_OPTIONS)({} as never, response as never, () => undefined);
  return headers;
})();

/**
 * The headers of API answers (`/v1`, `/admin`, `/api/`): the set the OWASP REST Security Cheat Sheet
 * recommends for JSON APIs (nosniff, no framing, a CSP that allows nothing, no referrer, no storage by
 * any cache: answers carry keys, webhook secrets and personal data). helmet's browser-oriented headers
 * (`Origin-Agent-Cluster`, `X-DNS-Prefetch-Control`, `X-Download-Options`...) mean nothing to an API client
 * and cost every response about 600 bytes; pages (the quote page, `/health`, documents) keep
 * {@link SECURITY_HEADERS}.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

/** True for the paths answered with {@link API_SECURITY_HEADERS}. */
function isApiPath(url: string): boolean {
  return url.startsWith('/v1') || url.startsWith('/admin') || url.startsWith('/api/');
}

/** A route Fastify serves, as registered (`:param` placeholders, HEAD twins left out). */
export interface RegisteredRoute {
  method: string;
  /** Fastify's path, e.g. `/v1/contacts/:id`. */
  path: string;
}

const ROUTES = new WeakMap<object, RegisteredRoute[]>();

interface PathNode {
  statics: Map<string, PathNode>;
  param?: PathNode;
  /** Methods of a route whose path ends here. */
  methods: Set<string>;
  /** Methods of a route whose path ends here with `*` (matches one or more remaining segments). */
  wildcard: Set<string>;
}

const pathNode = (): PathNode => ({ statics: new Map(), methods: new Set(), wildcard: new Set() });

/**
 * Which methods the router serves for a concrete path (the `Allow` header of a 405 `method_not_allowed`),
 * built once from the registered routes as a segment tree: `:param` segments match any one segment, a
 * trailing `*` any rest. The catch-all routes (`*`, `/*`) are left out, or every unknown path would be
 * "known". HEAD is listed wherever GET is (Fastify serves it). Lookup cost: the path's segments.
 */
export class PathMethodIndex {
  private readonly root = pathNode();

  constructor(routes: readonly RegisteredRoute[]) {
    for (const route of routes) {
      if (route.path === '*' || route.path === '/*') continue;
      let node = this.root;
      const segments = route.path.split('/').slice(1);
      const wildcard = segments[segments.length - 1] === '*';
      for (const segment of wildcard ? segments.slice(0, -1) : segments) {
        if (segment.startsWith(':')) node = node.param ??= pathNode();
        else {
          let next = node.statics.get(segment);
          if (!next) node.statics.set(segment, (next = pathNode()));
          node = next;
        }
      }
      (wildcard ? node.wildcard : node.methods).add(route.method);
    }
  }

  /** The methods served on `path` (no query string), sorted, HEAD beside GET; empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const found = new Set<string>();
    const segments = path.split('/').slice(1);
    const walk = (node: PathNode, index: number): void => {
      if (index < segments.length) for (const method of node.wildcard) found.add(method);
      if (index === segments.length) {
        for (const method of node.methods) found.add(method);
        return;
      }
      const segment = segments[index]!;
      const next = node.statics.get(segment);
      if (next) walk(next, index + 1);
      if (node.param && segment.length > 0) walk(node.param, index + 1);
    };
    if (path.startsWith('/')) walk(this.root, 0);
    if (found.has('GET')) found.add('HEAD');
    return [...found].sort();
  }
}

/**
 * Every route registered on the application's Fastify instance since {@link installHttpContract}
 * (which runs before `app.init()`, so all of Nest's routes are in). The OpenAPI coverage test uses it.
 */
export function registeredRoutes(app: NestFastifyApplication): RegisteredRoute[] {
  return [...(ROUTES.get(app.getHttpAdapter().getInstance()) ?? [])];
}

/**
 * Installs the cross-cutting HTTP contract on the Fastify instance (call before `app.init()`):
 * JSON body parsing that keeps the raw text and defers body problems (invalid JSON, missing,
 * malformed or non-JSON Content-Type) until after authentication, `X-Request-ID` and
 * `Service-Version` on every response, legacy-prefix headers and the post-sunset 308, the usage
 * log's completion hook, and the route registry.
 *
 * Errors: Nest installs Fastify's error handler itself at `app.init()` (so a handler set here would be
 * overridden, Fastify warning FSTWRN004, and was dead code). Nest's handler maps the errors Fastify
 * raises on its own in a route's lifecycle (body too large, Content-Length mismatch, …) to an
 * HttpException whose `cause` is the Fastify error and runs the global ErrorEnvelopeFilter on it, which
 * renders our envelope; the router's own refusals go through `frameworkErrors` (see
 * fastifyServerOptions). `http-contract.e2e-spec.ts` checks each of these.
 */
export function installHttpContract(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const config = app.get(AppConfig);
  const clock = app.get(Clock);
  const usage = app.get(UsageRecorder);
  const logger = new Logger('Http');

  const routes: RegisteredRoute[] = [];
  ROUTES.set(fastify, routes);
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method: String(method).toUpperCase(), path: route.url });
    }
  });
  // 405 for a known path asked with another method: the path → methods index is built once, when Fastify
  // is ready (no route can be added after), and consulted only for requests the router did not match.
  let pathMethods: PathMethodIndex | undefined;
  fastify.addHook('onReady', async () => {
    pathMethods = new PathMethodIndex(routes);
  });

  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.leadflow.rawBody = text;
    if (text.length === 0) return done(null, undefined);
    const parsed = parseJsonBody(text);
    if (parsed.ok) return done(null, parsed.value);
    request.leadflow.bodyError = parsed.problem;
    done(null, undefined);
  });
  // HTML form posts, only on the routes flagged with @AcceptFormBody() (the public quote page's buttons):
  // parsed to a flat object. Anywhere else they are refused like any non-JSON body (415 after authentication).
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.leadflow.rawBody = text;
    if (acceptsFormBody(request)) return done(null, parseFormBody(text));
    if (text.length > 0) request.leadflow.bodyError = 'unsupported_media_type';
    done(null, undefined);
  });
  // Everything else (no Content-Type, a non-JSON one, a malformed one: see onRequest) is read, kept
  // for the guard's 415, and never parsed. An empty body carries nothing, so it is not refused.
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.leadflow.rawBody = text;
    if (text.length > 0) {
      request.leadflow.bodyError = request.leadflow.contentType === undefined ? 'missing_content_type' : 'unsupported_media_type';
    }
    done(null, undefined);
  });

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    request.leadflow = { startedAt: process.hrtime.bigint(), receivedAt: clock.now() };
    void reply.header('X-Request-ID', String(request.id));
    void reply.header('Service-Version', SERVICE_VERSION);
    void reply.headers(isApiPath(request.url) ? API_SECURITY_HEADERS : SECURITY_HEADERS);
    screenContentType(request);
    if (request.url.length > MAX_URL_LENGTH) {
      sendError(reply, request, new DomainError('uri_too_long', `The URL is longer than ${MAX_URL_LENGTH} characters.`, { max_length: MAX_URL_LENGTH }), config.publicBaseUrl);
      return reply;
    }
    if ((request.raw as IncomingMessage & { [LEGACY_FLAG]?: boolean })[LEGACY_FLAG]) {
      request.leadflow.legacy = true;
      const successor = `${config.publicBaseUrl}${request.url}`;
      if (clock.now().getTime() >= LEGACY_SUNSET.getTime()) {
        return reply.status(308).header('Location', successor).send();
      }
      void reply.header('Deprecation', `@${Math.floor(LEGACY_DEPRECATED_AT.getTime() / 1000)}`);
      void reply.header('Sunset', LEGACY_SUNSET.toUTCString());
      void reply.header('Link', `<${successor}>; rel="successor-version"`);
    }
    if (request.is404) {
      const path = request.url.split('?', 1)[0] ?? request.url;
      // The operator API and console do not exist while ADMIN_TOKEN is unset (404 on every method there).
      if (!config.adminToken && isOperatorPath(path)) return;
      const allowed = (pathMethods ??= new PathMethodIndex(routes)).allowedMethods(path);
      if (allowed.length === 0) return;
      void reply.header('Allow', allowed.join(', '));
      sendError(reply, request, new DomainError('method_not_allowed', `${request.method} is not allowed on this path.`, { allowed_methods: allowed }), config.publicBaseUrl);
      return reply;
    }
  });

  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.leadflow;
    if ((request.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') !== false) {
      const elapsedMs = state?.startedAt === undefined ? null : Number(process.hrtime.bigint() - state.startedAt) / 1e6;
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url ?? null,
          statusCode: reply.statusCode,
          responseTimeMs: elapsedMs === null ? null : Math.round(elapsedMs * 10) / 10,
          account_id: state?.principal?.accountId ?? null,
        },
        'request completed',
      );
    }
    if (!state?.principal) return;
    try {
      const latencyMs = Number(process.hrtime.bigint() - (state.startedAt ?? process.hrtime.bigint())) / 1e6;
      usage.finished({
        principal: state.principal,
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        statusCode: reply.statusCode,
        rateLimited: state.rateLimited === true,
        latencyMs,
        startedAt: state.receivedAt ?? clock.now(),
      });
    } catch (error) {
      logger.warn({ err: error, request_id: request.id }, 'Usage recording failed');
    }
  });
}

/** `/admin…` and `/console…`: the paths that exist only while `ADMIN_TOKEN` is set. */
function isOperatorPath(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/') || path === '/console' || path.startsWith('/console/');
}

/**
 * Fastify answers 415 by itself, before any guard, when the Content-Type header is not a well-formed
 * media type (`garbage`, `;`, `""`). The contract wants authentication first, so such a header is
 * set aside here (kept in `leadflow.contentType` for the error details) and the body goes to the
 * catch-all parser, whose problem the guard raises after authentication.
 */
function screenContentType(request: FastifyRequest): void {
  const header = request.headers['content-type'];
  if (header === undefined) return;
  request.leadflow.contentType = header;
  if (!isWellFormedMediaType(header)) delete request.raw.headers['content-type'];
}

const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;
const SUBTYPE = /^[\w!#$%&'*+.^`|~-]+\s*$/;

/** Fastify's own validity rule for a Content-Type header (`type/subtype`, optional parameters). */
export function isWellFormedMediaType(header: string): boolean {
  if (header === '' || header === 'undefined') return false;
  const semicolon = header.indexOf(';');
  const mediaType = semicolon === -1 ? header : header.slice(0, semicolon);
  const slash = mediaType.indexOf('/');
  if (slash === -1) return false;
  return TOKEN.test(mediaType.slice(0, slash).trimStart()) && SUBTYPE.test(mediaType.slice(slash + 1).trimEnd());
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; problem: 'invalid_json' | 'forbidden_json_member' | 'too_deep' };

/**
 * Deepest nesting of objects and arrays a JSON body may have (the root object is level 1). No route
 * needs more than a handful; validation and transformation walk bodies recursively, so a body nested
 * thousands of levels would otherwise exhaust the stack (a 500). Deeper bodies: 400 `invalid_request`,
 * reason `too_deep`, on every route.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Options of secure-json-parse's scan: a `__proto__` member, or a `constructor` member holding a
 * `prototype`, anywhere in the body makes it unsafe (what Fastify's own parser refuses with
 * `onProtoPoisoning` / `onConstructorPoisoning` "error"); `safe` makes `scan` answer null instead of throwing.
 */
const POISONING_SCAN = { protoAction: 'error', constructorAction: 'error', safe: true } as const;

/**
 * JSON.parse, then refusing `__proto__` and `constructor.prototype` members with secure-json-parse's
 * scan (the library Fastify's default parser uses): the DTO transformation would otherwise assign them
 * as the instance's prototype. The scan walks the body only when its text could spell such a key:
 * literally, or with `\u` escapes (`"\u005f_proto__"` is the same key once parsed).
 */
export function parseJsonBody(text: string): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'invalid_json' };
  }
  if (value !== null && typeof value === 'object' && mayHoldPoisonedKey(text) && scanJson(value, POISONING_SCAN) === null) {
    return { ok: false, problem: 'forbidden_json_member' };
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) return { ok: false, problem: 'too_deep' };
  return { ok: true, value };
}

/** Whether a JSON text could hold a `__proto__` or `constructor` key (written out or with `\u` escapes). */
function mayHoldPoisonedKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

/** True when objects/arrays nest deeper than `limit` levels (iterative: the stack depth does not grow with the body's). */
function depthExceeds(value: unknown, limit: number): boolean {
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}

/** Fastify route `config` flag set by {@link AcceptFormBody}. */
export const FORM_BODY_ROUTE = 'leadflowFormBody';

/**
 * Lets one route accept `application/x-www-form-urlencoded` bodies (an HTML form post), parsed to a
 * flat object of strings; every other route keeps refusing them (415). Routes outside `/v1` and
 * `/admin/v1` only (the API speaks JSON).
 */
export const AcceptFormBody = () => RouteConfig({ [FORM_BODY_ROUTE]: true });

function acceptsFormBody(request: FastifyRequest): boolean {
  const config = request.routeOptions?.config as unknown as Record<string, unknown> | undefined;
  return config?.[FORM_BODY_ROUTE] === true;
}

/** `a=1&b=x+y` → `{ a: '1', b: 'x y' }` (null prototype; the last of repeated names wins). */
export function parseFormBody(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) fields[name] = value;
  return fields;
}
