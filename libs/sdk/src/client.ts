import { randomUUID } from 'node:crypto';
import createClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse } from 'openapi-fetch';
import { LeadflowApiError } from './errors';
import type { paths } from './generated/schema';
import { createRetryingFetch, type FetchLike, IDEMPOTENCY_KEY_HEADER } from './retry';

/** The openapi-fetch client over the generated `paths` (JSON responses). */
export type LeadflowRawClient = Client<paths, 'application/json'>;

/** Paths that have an operation for `method` (`'get'`, `'post'`, `'patch'`, `'delete'`). */
export type LeadflowPath<M extends Method> = ClientPathsWithMethod<LeadflowRawClient, M>;

/** Options of a call: `params.path`, `params.query`, `params.header`, `body` as the operation declares them, plus fetch options (`signal`, `headers`). */
export type LeadflowInit<P extends LeadflowPath<M>, M extends Method> = MaybeOptionalInit<paths[P], M>;

/** The 2xx body of `method` on `path` (`undefined` for a 204). */
export type LeadflowResponse<M extends Method, P extends LeadflowPath<M>, I = object> = MethodResponse<LeadflowRawClient, M, P, I>;

/** GET paths answering a cursor page: `{ data: [...], pagination: { next_cursor, has_more, ... } }`. */
export type PaginatedPath = {
  [P in LeadflowPath<'get'>]: LeadflowResponse<'get', P> extends { data: readonly unknown[]; pagination: { next_cursor: string | null; has_more: boolean } } ? P : never;
}[LeadflowPath<'get'>];

/** One item of the pages of `P`. */
export type PageItem<P extends PaginatedPath> = LeadflowResponse<'get', P> extends { data: readonly (infer Item)[] } ? Item : never;

type Method = 'get' | 'post' | 'patch' | 'delete';

/** Same rule as openapi-fetch: the options argument is required only when the operation has required members. */
type RequiredKeysOfHelper<T> = { [K in keyof T]: object extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
type InitArgs<I> = RequiredKeysOf<I> extends never ? [init?: I & { [key: string]: unknown }] : [init: I & { [key: string]: unknown }];

/** Options of {@link createLeadflowClient}. */
export interface LeadflowClientOptions {
  /** An API key (`lf_live_…`), sent as `Authorization: Bearer <apiKey>` (public API v1 › Authentication). */
  apiKey: string;
  /** Where the API is served, without `/v1` (for example `https://api.example.com` or `http://127.0.0.1:3000`). */
  baseUrl: string;
  /** The fetch to use (default `globalThis.fetch`); it receives a `Request`. */
  fetch?: FetchLike;
  /** Retries of a retry-safe request after a 429 with `Retry-After`, a 503 or a network failure (default 2; 0 disables). */
  maxRetries?: number;
  /** Longest `Retry-After` the client waits for, in seconds (default 60); beyond it the error is thrown at once. */
  maxRetryDelaySeconds?: number;
  /** First backoff step in milliseconds when the server gives no `Retry-After` (default 500, doubled each retry, with jitter). */
  retryBaseDelayMs?: number;
  /** Headers sent on every request (for example `User-Agent`); `Authorization` is always the API key's. */
  headers?: Record<string, string>;
  /** Replaces the timer used between retries (tests). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A client of the Leadflow public API v1. Every method is typed from the OpenAPI description
 * (`paths`, `params`, `body`, response) and answers the 2xx body; any other status throws
 * {@link LeadflowApiError}.
 */
export interface LeadflowClient {
  /** `GET path`: the 2xx body. @throws LeadflowApiError */
  get<P extends LeadflowPath<'get'>, I extends LeadflowInit<P, 'get'>>(path: P, ...init: InitArgs<I>): Promise<LeadflowResponse<'get', P, I>>;
  /** `POST path`: the 2xx body. `POST /v1/leads/capture` gets an `Idempotency-Key` (UUID v4) unless one is given. @throws LeadflowApiError */
  post<P extends LeadflowPath<'post'>, I extends LeadflowInit<P, 'post'>>(path: P, ...init: InitArgs<I>): Promise<LeadflowResponse<'post', P, I>>;
  /** `PATCH path`: the 2xx body (never retried). @throws LeadflowApiError */
  patch<P extends LeadflowPath<'patch'>, I extends LeadflowInit<P, 'patch'>>(path: P, ...init: InitArgs<I>): Promise<LeadflowResponse<'patch', P, I>>;
  /** `DELETE path`: the 2xx body (`undefined` for a 204). @throws LeadflowApiError */
  delete<P extends LeadflowPath<'delete'>, I extends LeadflowInit<P, 'delete'>>(path: P, ...init: InitArgs<I>): Promise<LeadflowResponse<'delete', P, I>>;
  /**
   * Every item of a cursor-paginated list, page after page: passes `pagination.next_cursor` back as
   * `cursor` until `has_more` is false (public API v1 › Lists and pagination). `params.query.limit`
   * sets the page size; other query members are kept on every page.
   *
   * @example for await (const contact of client.paginate('/v1/contacts', { params: { query: { search: 'tremblay' } } })) { … }
   * @throws LeadflowApiError from the page that failed (items of earlier pages were already yielded)
   */
  paginate<P extends PaginatedPath, I extends LeadflowInit<P, 'get'>>(path: P, ...init: InitArgs<I>): AsyncGenerator<PageItem<P>, void, undefined>;
  /** The pages themselves (`{ data, pagination, meta? }`), for `total_count` or `meta`. Same walk as {@link paginate}. */
  pages<P extends PaginatedPath, I extends LeadflowInit<P, 'get'>>(path: P, ...init: InitArgs<I>): AsyncGenerator<LeadflowResponse<'get', P, I>, void, undefined>;
  /** The underlying openapi-fetch client (`{ data, error, response }` answers, nothing thrown), with the same auth, retries and idempotency keys. */
  readonly raw: LeadflowRawClient;
}

const LEAD_CAPTURE_PATH = '/v1/leads/capture';

/**
 * Creates a {@link LeadflowClient}: openapi-fetch over the generated types, plus
 *
 * - `Authorization: Bearer <apiKey>` on every request;
 * - retries of retry-safe requests (GET, DELETE, or any request with an `Idempotency-Key`) after a 429
 *   carrying `Retry-After`, a 503 or a network failure, honouring `Retry-After` (seconds or HTTP date) up to
 *   `maxRetryDelaySeconds`, else exponential backoff with jitter;
 * - an automatic `Idempotency-Key` (UUID v4) on `POST /v1/leads/capture`, the same on each of its retries,
 *   so a capture retried after a lost answer is replayed by the API, not captured twice;
 * - {@link LeadflowApiError} thrown for every non-2xx answer.
 *
 * @throws TypeError when `apiKey` or `baseUrl` is empty.
 */
export function createLeadflowClient(options: LeadflowClientOptions): LeadflowClient {
  if (!options.apiKey) throw new TypeError('createLeadflowClient: apiKey is required');
  if (!options.baseUrl) throw new TypeError('createLeadflowClient: baseUrl is required');
  const baseFetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const retrying = createRetryingFetch(baseFetch, {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 2)),
    maxRetryDelaySeconds: options.maxRetryDelaySeconds ?? 60,
    baseDelayMs: options.retryBaseDelayMs ?? 500,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: Math.random,
  });
  const fetchWithKeys: FetchLike = (request) => {
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith(LEAD_CAPTURE_PATH) && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
      request.headers.set(IDEMPOTENCY_KEY_HEADER, randomUUID());
    }
    return retrying(request);
  };
  const raw = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: fetchWithKeys,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
  });

  type Answer = { data?: unknown; error?: unknown; response: Response };
  type LooseCall = (path: string, init?: unknown) => Promise<Answer>;
  const methods: Record<Method, LooseCall> = {
    get: raw.GET as unknown as LooseCall,
    post: raw.POST as unknown as LooseCall,
    patch: raw.PATCH as unknown as LooseCall,
    delete: raw.DELETE as unknown as LooseCall,
  };
  const call = async (method: Method, path: string, init: unknown): Promise<unknown> => {
    const { data, error, response } = await methods[method](path, init);
    if (!response.ok) throw LeadflowApiError.fromResponse(response, error);
    return data;
  };

  async function* pages(path: string, init?: { params?: { query?: Record<string, unknown> } }): AsyncGenerator<unknown, void, undefined> {
    let cursor: string | undefined = (init?.params?.query?.cursor as string | undefined) ?? undefined;
    const seen = new Set<string>();
    for (;;) {
      const query = { ...init?.params?.query, ...(cursor === undefined ? {} : { cursor }) };
      const page = (await call('get', path, { ...init, params: { ...init?.params, query } })) as {
        data: unknown[];
        pagination?: { next_cursor: string | null; has_more: boolean };
      };
      yield page;
      const next = page.pagination?.next_cursor ?? null;
      if (!page.pagination?.has_more || next === null) return;
      if (seen.has(next)) throw new Error(`paginate ${path}: the API returned cursor ${next} twice`);
      seen.add(next);
      cursor = next;
    }
  }

  const client = {
    get: (path: string, init?: unknown) => call('get', path, init),
    post: (path: string, init?: unknown) => call('post', path, init),
    patch: (path: string, init?: unknown) => call('patch', path, init),
    delete: (path: string, init?: unknown) => call('delete', path, init),
    pages,
    async *paginate(path: string, init?: { params?: { query?: Record<string, unknown> } }) {
      for await (const page of pages(path, init)) yield* (page as { data: unknown[] }).data;
    },
    raw,
  };
  return client as unknown as LeadflowClient;
}
