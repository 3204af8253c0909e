import { Client, ClientConfig } from 'pg';

/**
 * pg's `Client` for the apps' pools (`extra.Client`, every mode). pg-pool listens for `error` only on IDLE
 * connections; a connection lost while checked out (PostgreSQL restarted, PgBouncer stopped, a backend
 * terminated) emits `error` on a client nobody listens to, and Node ends the process on an unhandled
 * `error` event (an api process died that way when PgBouncer stopped under load). Here the statement in
 * flight still rejects with pg's error, and the pool drops the broken connection when it is released
 * (`_queryable` false): the error is reported where it belongs, and the process lives.
 */
export class PooledClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}
