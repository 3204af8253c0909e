import { connect, createServer, Server, Socket } from 'node:net';

/** A TCP proxy to a Redis server that a test can close to play "Redis is down" (and reopen on `port` for "back"). */
export interface RedisProxy {
  /** `redis://127.0.0.1:<port>/<db of the target>` */
  url: string;
  port: number;
  /** Drops every proxied connection and stops listening: clients see Redis as down. */
  close(): Promise<void>;
}

/**
 * Starts a proxy on `port` (0: a free one) forwarding to the Redis of `redisUrl`. Tests use it to cut
 * Redis under a running app without touching the shared server.
 */
export async function redisProxy(redisUrl: string, port = 0): Promise<RedisProxy> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as { port: number }).port;
  const url = new URL(redisUrl);
  url.hostname = '127.0.0.1';
  url.port = String(bound);
  return {
    url: url.toString(),
    port: bound,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
