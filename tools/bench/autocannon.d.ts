/**
 * The part of autocannon 9's programmatic API the bench harness uses (the package ships no types, and
 * `@types/autocannon` describes version 7). Shapes read from `autocannon/lib/{run,aggregateResult,
 * requestIterator,httpRequestBuilder}.js` of 9.0.0; extend here when the harness needs more.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** What `setupRequest` receives and returns (autocannon merges the defaults in first). */
    interface RequestParams {
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string | Buffer;
    }

    /** One entry of `requests`: each connection walks the list in order, then starts over. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each send of this entry; returns the request to send (a falsy value restarts the list). */
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | null | undefined;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }

    interface Options {
      url: string;
      title?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Requests per second across all connections (a throttled, open-loop-like load). */
      overallRate?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      renderProgressBar?: boolean;
      renderResultsTable?: boolean;
      renderLatencyTable?: boolean;
    }

    /** A histogram summary: `average`, `mean`, `stddev`, `min`, `max`, `total` and `p<percentile>` members. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      [percentile: string]: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      pipelining: number;
      /** Seconds actually run. */
      duration: number;
      start: Date;
      finish: Date;
      /** Socket errors (refused, reset) and timeouts. */
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds. */
      latency: Histogram & { totalCount: number };
      /** Requests per one-second sample; `total` is the number of responses. */
      requests: Histogram & { sent: number };
      /** Bytes per one-second sample. */
      throughput: Histogram;
    }

    /** The running instance: an EventEmitter that is also a promise of the result. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export = autocannon;
}
