import { connect, Socket } from 'node:net';
import { TestApi } from './support/test-api';

/** Raw HTTP/1.1 over one kept-alive socket: each call writes a request and resolves with the next response. */
function rawClient(port: number): { send(request: string): Promise<{ head: string; body: string }>; socket: Socket } {
  const socket = connect(port, '127.0.0.1');
  let buffer = '';
  let waiting: ((response: { head: string; body: string }) => void) | null = null;
  const tryResolve = () => {
    const end = buffer.indexOf('\r\n\r\n');
    if (!waiting || end === -1) return;
    const head = buffer.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.slice(end + 4, end + 4 + length);
    buffer = buffer.slice(end + 4 + length);
    const resolve = waiting;
    waiting = null;
    resolve({ head, body });
  };
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    tryResolve();
  });
  socket.on('error', () => undefined);
  return {
    socket,
    send: (request) =>
      new Promise((resolve, reject) => {
        waiting = resolve;
        socket.once('close', () => reject(new Error('connection closed')));
        socket.write(request);
      }),
  };
}

/**
 * Over-long URLs (issue 12, item 6): up to Node's 16 KiB header limit the api answers 414 `uri_too_long`
 * in the error envelope and keeps the connection; beyond it, 431 `request_header_fields_too_large` in the
 * envelope with `Connection: close`, so the client's next request goes on a new connection, never a reset.
 */
describe('over-long URLs', () => {
  let api: TestApi;
  let port: number;

  beforeAll(async () => {
    api = await TestApi.start();
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (api.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => api.close());

  it('a URL of 10,000 characters answers 414 uri_too_long in the envelope, and the kept-alive connection serves the next request', async () => {
    const client = rawClient(port);
    const first = await client.send(`GET /v1/contacts?search=${'a'.repeat(10_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(first.head).toMatch(/^HTTP\/1.1 414/);
    expect(JSON.parse(first.body)).toMatchObject({ code: 'uri_too_long', type: 'invalid_request_error', details: { max_length: 8192 } });
    const second = await client.send('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(second.head).toMatch(/^HTTP\/1.1 200/);
    client.socket.destroy();
  });

  it('a URL over 16 KiB answers 431 request_header_fields_too_large in the envelope with Connection: close; a new connection then works', async () => {
    const client = rawClient(port);
    const response = await client.send(`GET /v1/contacts?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(response.head).toMatch(/^HTTP\/1.1 431/);
    expect(response.head).toMatch(/connection: close/i);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'request_header_fields_too_large', request_id: expect.any(String) });
    client.socket.destroy();
    const fresh = rawClient(port);
    expect((await fresh.send('GET /health HTTP/1.1\r\nHost: x\r\n\r\n')).head).toMatch(/^HTTP\/1.1 200/);
    fresh.socket.destroy();
  });
});

/** Security headers (issue 12, item 9): on every answer, and `Cache-Control: no-store` on API answers. */
describe('security headers', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('an answer carrying a raw API key has X-Content-Type-Options nosniff and Cache-Control no-store', async () => {
    const response = await api.admin('POST', '/accounts', { name: 'Toitures Lévesque', api_keys: [{ name: 'full', preset: 'full_integration' }] });
    expect(response.status).toBe(201);
    expect(response.body.api_keys.full.key).toMatch(/^lf_live_/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    // helmet's browser-only headers are left off API answers (OWASP REST set, see API_SECURITY_HEADERS)
    expect(response.headers['x-dns-prefetch-control']).toBeUndefined();
    expect(response.headers['origin-agent-cluster']).toBeUndefined();
  });

  it.each(['/v1/me', '/v1/contacts/not-a-uuid', '/admin/v1/accounts/x'])('errors carry them too (%s)', async (path) => {
    const response = await api.request({ path, token: 'lf_live_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('/health has nosniff as well', async () => {
    const response = await api.request({ path: '/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
