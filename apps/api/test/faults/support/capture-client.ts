import type { LeadSpec } from './fault-plan';

/* eslint-disable @typescript-eslint/no-explicit-any -- answer bodies are read member by member */

/** What one lead went through until it was acknowledged (or given up). */
export interface CaptureOutcome {
  lead: LeadSpec;
  /** The 2xx answer, or null when the lead was given up (a 4xx that retrying cannot fix, or the deadline). */
  acknowledged: { status: number; body: any } | null;
  /** Requests sent for this lead (1 when the first one was acknowledged). */
  attempts: number;
  /** What each failed attempt got: an HTTP status with its error code (`503 service_unavailable`) or a connection error. */
  failures: string[];
  /** Why the lead was given up, when it was. */
  gaveUp: string | null;
}

export interface CaptureClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Give up a lead this long after its first request (ms). */
  deadlineMs: number;
  /** Timeout of one request (ms). */
  requestTimeoutMs?: number;
}

/** Waits `ms`, or less if `signal` aborts first. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * An integrator's client of `POST /v1/leads/capture`: each lead is sent with its own Idempotency-Key and
 * sent again, with the SAME key and body, until it is acknowledged with a 2xx. Retried: connection
 * errors and timeouts, 5xx, 429, and 409 `idempotency_conflict` (the key is still held by an earlier
 * attempt). The wait grows exponentially from 100 ms to 2 s with jitter, and honours `Retry-After`
 * (capped at 5 s). Any other 4xx is final: the lead is given up, which the suite counts as a failure.
 * `signal` (the suite failed elsewhere) stops the retries at once: the lead is given up as `aborted`.
 */
export class CaptureClient {
  constructor(private readonly options: CaptureClientOptions) {}

  async capture(lead: LeadSpec, signal: AbortSignal): Promise<CaptureOutcome> {
    const outcome: CaptureOutcome = { lead, acknowledged: null, attempts: 0, failures: [], gaveUp: null };
    const deadline = Date.now() + this.options.deadlineMs;
    for (let retry = 0; ; retry++) {
      if (signal.aborted) {
        outcome.gaveUp = `aborted after ${outcome.attempts} attempt(s)${outcome.failures.length > 0 ? ` (${outcome.failures.slice(-3).join(', ')})` : ''}`;
        return outcome;
      }
      outcome.attempts++;
      let waitMs = Math.min(2000, 100 * 2 ** retry) * (0.5 + Math.random());
      try {
        // One controller per request (headers and body): aborted by its own timeout or by the suite's signal.
        const request = new AbortController();
        const abortRequest = () => request.abort();
        const timer = setTimeout(abortRequest, this.options.requestTimeoutMs ?? 20_000);
        signal.addEventListener('abort', abortRequest, { once: true });
        let response: Response;
        let text: string;
        try {
          response = await fetch(`${this.options.baseUrl}/v1/leads/capture`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${this.options.apiKey}`,
              'content-type': 'application/json',
              'idempotency-key': lead.idempotencyKey,
              'x-forwarded-for': lead.forwardedFor,
            },
            body: JSON.stringify(lead.body),
            signal: request.signal,
          });
          text = await response.text();
        } finally {
          clearTimeout(timer);
          signal.removeEventListener('abort', abortRequest);
        }
        let body: any = text;
        try {
          body = text.length > 0 ? JSON.parse(text) : null;
        } catch {
          // not JSON: kept as text
        }
        if (response.status >= 200 && response.status < 300) {
          outcome.acknowledged = { status: response.status, body };
          return outcome;
        }
        const code = typeof body === 'object' && body !== null ? String(body.code ?? '') : '';
        outcome.failures.push(`${response.status} ${code}`.trim());
        const retryable = response.status >= 500 || response.status === 429 || (response.status === 409 && code === 'idempotency_conflict' && body?.details?.reason === 'in_progress');
        if (!retryable) {
          outcome.gaveUp = `${response.status} ${text.slice(0, 300)}`;
          return outcome;
        }
        const retryAfter = Number(response.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs = Math.max(waitMs, Math.min(5000, retryAfter * 1000));
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        outcome.failures.push(cause?.code ?? (error as Error).name ?? 'network_error');
      }
      if (Date.now() + waitMs > deadline) {
        outcome.gaveUp = `deadline: no 2xx after ${outcome.attempts} attempts (${outcome.failures.slice(-3).join(', ')})`;
        return outcome;
      }
      await pause(waitMs, signal);
    }
  }
}
