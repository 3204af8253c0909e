import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * One plain `node:http` listener of the worker (its probes and its `/metrics`, which have no Fastify):
 * `listen` binds `port` on `host` (0: any free port) and resolves once listening, rejecting on a bind
 * error (port taken); `close` drops open connections and resolves once closed (nothing when not
 * listening). `handle` runs per request; a rejection it leaves is the handler's to avoid.
 */
export class NodeHttpListener {
  private server: Server | null = null;

  /** The listening port (differs from the one asked only when that was 0), or null when not listening. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  async listen(port: number, host: string, handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<void> {
    const server = createServer((request, response) => void handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
