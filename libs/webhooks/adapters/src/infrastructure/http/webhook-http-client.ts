import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Agent, request } from 'undici';
import { AppConfig } from '@leadflow/shared-platform';
import { ReceiverAnswer, WebhookSender } from '@leadflow/webhooks-core';
import { TargetGuard, TargetRefusedError } from './target-guard';

/** Longest wait for a receiver's answer, connection included (issue 6: "answered 2xx within 10 seconds"). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * {@link WebhookSender}: the delivery HTTP client (undici). One keep-alive `Agent` whose TLS trust store is Node's default
 * plus the PEM of `WEBHOOK_CA_FILE`, and whose socket `lookup` is the SSRF guard's: the connection
 * goes to the checked address. IP-literal URLs are checked before the request. Redirects are not
 * followed (a 3xx is a failed attempt). The response body is read and discarded (at most 64 KiB kept
 * for nothing: the status is what counts).
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
        ...(extraCa ? { ca: [...rootCertificates, extraCa] } : {}),
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
      await response.body.dump({ limit: 65_536 }).catch(() => undefined);
      return { status: response.statusCode, error: null, refused: false, durationMs: Date.now() - started };
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
