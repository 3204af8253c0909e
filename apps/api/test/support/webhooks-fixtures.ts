import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A blueprint with the `webhooks` module and three keys: two full ones and one without `webhooks:manage`. */
export function webhooksBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    systems: [{ name: 'Main', is_main: true }, { name: 'Laval' }],
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'other', preset: 'full_integration', per_hour: 100000 },
      { name: 'reader', scopes: ['contacts:read'], per_hour: 100000 },
    ],
    ...extra,
  };
}

/** A public IPv4 literal (no DNS needed): accepted by the SSRF guard without the allow flag. */
export const PUBLIC_TARGET = 'https://93.184.215.14/hooks/leadflow';

/** A self-signed certificate for `localhost` / `127.0.0.1`, generated with the openssl CLI into a temp dir. */
export interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  remove(): void;
}

export function generateCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'leadflow-webhook-ca-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile],
    { stdio: 'ignore' },
  );
  return { dir, certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One request the receiver got. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
  path: string;
  answered: number | 'held' | 'dropped';
  /** When it arrived (ms since the epoch). */
  receivedAt: number;
}

/**
 * What the receiver answers to the next request of a path: a status, `hold` (answer later with `release`),
 * `drop` (destroy the socket), or a status with its own headers and body.
 */
export type ReceiverPlan = number | 'hold' | 'drop' | { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real HTTPS receiver on 127.0.0.1 (node:https, the self-signed certificate). Each path answers from
 * its plan (a queue of statuses; 200 once the queue is empty). Held requests wait for `release()`.
 */
export class HttpsReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly plans = new Map<string, ReceiverPlan[]>();
  private readonly held: { request: ReceivedWebhook; answer: (status: number | 'drop') => void }[] = [];
  /** Per path: every request answers `status` until `until` (ms since the epoch), whatever the plan. */
  private readonly failures = new Map<string, { status: number; until: number }>();
  /** Per path: every request arriving before `until` (ms since the epoch) is answered `delayMs` late. */
  private readonly slowdowns = new Map<string, { delayMs: number; until: number }>();

  private server!: Server;

  static async start(certificate: TestCertificate): Promise<HttpsReceiver> {
    const receiver = new HttpsReceiver();
    const server = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        let body: unknown = null;
        try {
          body = JSON.parse(rawBody);
        } catch {
          body = null;
        }
        const request: ReceivedWebhook = { headers: req.headers, rawBody, body, path, answered: 200, receivedAt: Date.now() };
        receiver.received.push(request);
        const failure = receiver.failures.get(path);
        const plan = failure && request.receivedAt < failure.until ? failure.status : (receiver.plans.get(path)?.shift() ?? 200);
        const answer = (status: number | 'drop') => {
          if (res.destroyed || req.socket.destroyed) {
            request.answered = 'dropped'; // the sender went away while the answer was held (a killed worker)
          } else if (status === 'drop') {
            request.answered = 'dropped';
            req.socket.destroy();
          } else {
            request.answered = status;
            res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
          }
        };
        const slowdown = receiver.slowdowns.get(path);
        if (typeof plan === 'object') {
          request.answered = plan.status;
          res.writeHead(plan.status, { 'content-type': 'text/plain', ...(plan.headers ?? {}) }).end(plan.body ?? '');
        } else if (plan === 'hold') {
          request.answered = 'held';
          receiver.held.push({ request, answer });
        } else if (slowdown && request.receivedAt < slowdown.until) {
          request.answered = 'held';
          setTimeout(() => answer(plan), slowdown.delayMs);
        } else answer(plan);
      });
    });
    receiver.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  plan(path: string, ...answers: ReceiverPlan[]): void {
    this.plans.set(path, [...(this.plans.get(path) ?? []), ...answers]);
  }

  /** Every request of `path` answers `status` (500 by default) for the next `durationMs`, whatever its plan. */
  failFor(path: string, durationMs: number, status = 500): void {
    this.failures.set(path, { status, until: Date.now() + durationMs });
  }

  /**
   * Every request of `path` arriving in the next `durationMs` is answered `delayMs` late (deliveries stay in
   * flight, their leases held); a sender gone by then gets nothing (`answered: 'dropped'`).
   */
  slowFor(path: string, durationMs: number, delayMs: number): void {
    this.slowdowns.set(path, { delayMs, until: Date.now() + durationMs });
  }

  /** Ends a {@link slowFor} window at once (requests already held keep their delay). */
  endSlow(path: string): void {
    this.slowdowns.delete(path);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Answers every held request. */
  release(status: number | 'drop' = 200): void {
    for (const entry of this.held.splice(0)) entry.answer(status);
  }

  async stop(): Promise<void> {
    this.release('drop');
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The receiver side of the signature check: `t=<unix>,v1=<hex HMAC-SHA256("<t>.<raw body>", secret)>`. */
export function signatureMatches(header: string | string[] | undefined, rawBody: string, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${rawBody}`).digest('hex');
  return expected === match[2] && Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
}
