import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, SecureContext } from 'node:tls';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Agent, request } from 'undici';
import { AppConfig } from '@leadflow/shared-platform';
import { ReceiverAnswer, WebhookSender } from '@leadflow/webhooks-core';
import { TargetGuard, TargetRefusedError } from './target-guard';

/** Longest wait for a receiver's answer, connection included (issue 6: "answered 2xx within 10 seconds"). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The TLS context of every delivery connection: Node's default trust store, plus the PEM of `caPem`
 * (`WEBHOOK_CA_FILE`) when given. Built once per client and handed to each connection as `secureContext`
 * (issue 11, soak: worker RSS). Given `ca` instead, `tls.connect` builds a new context for every
 * connection, refused ones included: the ~140 root certificates parsed again (~40 ms of CPU) into ~1 MB
 * of OpenSSL memory outside the V8 heap, which the GC does not see and malloc does not give back, so the
 * worker's RSS climbed with every connection the receivers closed (and by gigabytes while a receiver
 * refused connections).
 */
export function webhookSecureContext(caPem: string | null): SecureContext {
  return caPem ? createSecureContext({ ca: [...rootCertificates, caPem] }) : createSecureContext();
}

/**
 * {@link WebhookSender}: the delivery HTTP client (undici). One keep-alive `Agent` whose TLS trust store is Node's default
 * plus the PEM of `WEBHOOK_CA_FILE` (one {@link webhookSecureContext} shared by all its connections), and whose socket
 * `lookup` is the SSRF guard's: the connection goes to the checked address. IP-literal URLs are checked before the request. Redirects are not
 * followed (a 3xx is a failed attempt). The response body is read (at most 64 KiB, so the connection
 * can be reused) and its first 1 KiB kept for the delivery log; `Retry-After` (seconds or an HTTP date)
 * is read as milliseconds.
 */
@Injectable()
export class WebhookHttpClient extends WebhookSender implements OnModuleDestroy {
  private readonly agent: Agent;

  constructor(
    config: AppConfig,
    private readonly guard: TargetGuard,
  ) {
    super();
    const extraCa = config.webhookCaFile ? readFileSync(config.webhookCaFile, 'utf8') : null;
    this.agent = new Agent({
      connect: {
        secureContext: webhookSecureContext(extraCa),
        lookup: guard.lookupFunction(),
        timeout: WEBHOOK_TIMEOUT_MS,
      } as Agent.Options['connect'],
      headersTimeout: WEBHOOK_TIMEOUT_MS,
      bodyTimeout: WEBHOOK_TIMEOUT_MS,
      connections: 64,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }

  /** POSTs `body` to `url` with `headers`; never throws. */
  async post(url: string, body: string, headers: Record<string, string>): Promise<ReceiverAnswer> {
    const started = Date.now();
    try {
      await this.guard.check(new URL(url).hostname); // IP literals (no lookup happens for them) and a clear refusal
      const response = await request(url, {
        method: 'POST',
        body,
        headers,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      const head = await readHead(response.body).catch(() => null);
      return {
        status: response.statusCode,
        error: null,
        refused: false,
        durationMs: Date.now() - started,
        body: head,
        retryAfterMs: parseRetryAfter(response.headers['retry-after'], Date.now()),
      };
    } catch (error) {
      const refusal = findRefusal(error);
      if (refusal) return { status: null, error: `${refusal.reason}: ${refusal.message}`, refused: true, durationMs: Date.now() - started };
      return { status: null, error: describe(error), refused: false, durationMs: Date.now() - started };
    }
  }
}

function findRefusal(error: unknown): TargetRefusedError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof TargetRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timeout: no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
    const code = (error as { code?: string }).code;
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    return [code, error.message, cause?.code, cause?.message].filter(Boolean).join(': ').slice(0, 500);
  }
  return String(error).slice(0, 500);
}

/** Longest response body read (bytes) and the part of it kept for the delivery log. */
const BODY_READ_LIMIT = 65_536;
export const RESPONSE_BODY_KEPT_BYTES = 1024;

/** Reads the body (up to 64 KiB) and answers its first 1 KiB as UTF-8 (a character cut at the end dropped), null when empty. */
async function readHead(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  let kept = Buffer.alloc(0);
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (kept.length < RESPONSE_BODY_KEPT_BYTES) kept = Buffer.concat([kept, chunk.subarray(0, RESPONSE_BODY_KEPT_BYTES - kept.length)]);
    if (total > BODY_READ_LIMIT) {
      body.destroy();
      break;
    }
  }
  if (kept.length === 0) return null;
  return kept.toString('utf8').replace(/\uFFFD+$/, '');
}

/** `Retry-After` as milliseconds from `nowMs`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d{1,10}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
