import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { AppConfig } from '@leadflow/shared-platform';
import { TargetGuard } from './target-guard';
import { WebhookHttpClient } from './webhook-http-client';

/**
 * The delivery client's TLS context is built once, not per connection (issue 11, soak: the worker's RSS
 * grew with every new connection, by ~1 MB of OpenSSL memory outside the V8 heap per context built from
 * `ca`). A receiver on loopback that closes every connection (`Connection: close`) makes each delivery
 * open a new one; a closed port makes each attempt a refused connection.
 */
describe('WebhookHttpClient TLS context (WEBHOOK_CA_FILE)', () => {
  let dir: string;
  let server: Server;
  let port: number;
  let client: WebhookHttpClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadflow-webhook-client-'));
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile],
      { stdio: 'ignore' },
    );
    server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { connection: 'close' }).end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const config = new AppConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CA_FILE: certFile });
    client = new WebhookHttpClient(config, new TargetGuard(config));
  });

  afterAll(async () => {
    await client?.onModuleDestroy();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => jest.restoreAllMocks());

  it('trusts the CA file and builds no TLS context for the new connections of 20 deliveries', async () => {
    const built = jest.spyOn(tls, 'createSecureContext');
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await client.post(`https://127.0.0.1:${port}/hooks`, '{}', { 'content-type': 'application/json' }));
    expect(answers.map((answer) => [answer.status, answer.error])).toEqual(Array.from({ length: 20 }, () => [200, null]));
    expect(built).not.toHaveBeenCalled();
  });

  it('builds none either for refused connections', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const built = jest.spyOn(tls, 'createSecureContext');
    for (let i = 0; i < 5; i++) {
      const answer = await client.post(`https://127.0.0.1:${closedPort}/hooks`, '{}', {});
      expect(answer.status).toBeNull();
      expect(answer.error).toContain('ECONNREFUSED');
    }
    expect(built).not.toHaveBeenCalled();
  });
});
