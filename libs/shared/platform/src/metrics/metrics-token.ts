import { createHash, timingSafeEqual } from 'node:crypto';

/** `WWW-Authenticate` of a refused scrape (RFC 6750). */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

/** Plain-text body of a refused scrape (401): Prometheus only reads the status, a person reads this. */
export const METRICS_UNAUTHORIZED_BODY = 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>.\n';

/**
 * Whether a scrape of `GET /metrics` (api and worker) may read the metrics: always when `METRICS_TOKEN` is
 * unset (`token` null: open, for a scraper on a private network), otherwise only with
 * `Authorization: Bearer <METRICS_TOKEN>`. Both tokens are hashed (sha256) and the digests compared in constant
 * time, so neither the token nor its length leaks through timing.
 */
export function metricsScrapeAllowed(authorization: string | string[] | undefined, token: string | null): boolean {
  if (token === null) return true;
  const header = typeof authorization === 'string' ? authorization : undefined;
  const given = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  const expected = createHash('sha256').update(token).digest();
  const actual = createHash('sha256').update(given ?? '').digest();
  return timingSafeEqual(actual, expected) && given !== undefined;
}
