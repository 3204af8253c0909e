import { Logger } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { asAccountId, FixedClock } from '@leadflow/shared-kernel';
import type { RedisConnection, RequestOutcome } from '@leadflow/shared-platform';
import { RedisUsageRecorder } from './redis-usage.recorder';
import { UsageRedisKeys } from './usage-redis-keys';

/** A Redis stand-in that records each MULTI/EXEC and answers as told (a fake, not a mock library). */
class FakeRedis {
  readonly transactions: string[][][] = [];
  failExec = false;
  throwOnMulti = false;

  readonly client = {
    multi: () => {
      if (this.throwOnMulti) throw new Error('connection closed');
      const commands: string[][] = [];
      const tx = {
        hincrby: (key: string, field: string, by: number) => (commands.push(['hincrby', key, field, String(by)]), tx),
        expire: (key: string, seconds: number) => (commands.push(['expire', key, String(seconds)]), tx),
        sadd: (key: string, member: string) => (commands.push(['sadd', key, member]), tx),
        exec: async () => {
          this.transactions.push(commands);
          if (this.failExec) throw new Error('redis down');
          return commands.map(() => [null, 1]);
        },
      };
      return tx;
    },
  };

  key(...parts: string[]): string {
    return ['t', ...parts].join(':');
  }

  /** A single Redis: the hash tag is left out (RedisConnection.slotKey). */
  slotKey(_tag: string, ...parts: string[]): string {
    return this.key(...parts);
  }

  /** The hash fields incremented by every transaction so far. */
  increments(): string[] {
    return this.transactions.flatMap((commands) => commands.filter(([name]) => name === 'hincrby').map(([, , field]) => field));
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RedisUsageRecorder (UsageRecorder port: fire-and-forget, one round trip per call, never throws)', () => {
  const clock = new FixedClock(new Date('2026-03-10T10:15:00.000Z'));
  let redis: FakeRedis;
  let recorder: RedisUsageRecorder;
  const principal = (): ApiKeyPrincipal => ({
    keyId: '5d2f0a3e-7c1b-4f7e-8a55-222222222222',
    keyName: 'full',
    keyPrefix: 'lf_live_abcdefgh',
    accountId: asAccountId('0b7c4c39-2f3e-4a8e-9d7a-111111111111'),
    accountName: 'Rénovations Tremblay',
    scopes: [],
    features: ['public_api'],
    perHour: 1000,
    eventsPerMinute: 60,
    apiTermsAccepted: true,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    expiresAt: null,
  });
  const outcome = (key: ApiKeyPrincipal, statusCode: number, rateLimited = false): RequestOutcome => ({
    principal: key,
    method: 'GET',
    route: '/v1/me',
    statusCode,
    rateLimited,
    latencyMs: 12.3,
    startedAt: clock.now(),
  });

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']));

  beforeEach(() => {
    redis = new FakeRedis();
    const connection = redis as unknown as RedisConnection;
    recorder = new RedisUsageRecorder(connection, new UsageRedisKeys(connection), clock);
  });

  const HOUR = Date.parse('2026-03-10T10:00:00.000Z') / 1000;

  it('gathers starts and outcomes in process and writes them in one transaction per flush, in the hash of the hour the request started', async () => {
    const key = principal();
    recorder.started(key, clock.now());
    recorder.finished(outcome(key, 200));
    recorder.started(key, clock.now());
    recorder.finished(outcome(key, 200));
    await settle();
    expect(redis.transactions).toHaveLength(0); // nothing on the request path
    await recorder.flush();
    expect(redis.transactions).toHaveLength(1);
    const hash = `t:usage:h:${HOUR}:${key.accountId}:${key.keyId}`;
    expect(redis.transactions[0]).toEqual([
      ['hincrby', hash, 'n', '2'],
      ['hincrby', hash, 's2', '2'],
      ['hincrby', hash, expect.stringMatching(/^l:\d+$/), '2'],
      ['expire', hash, String(3 * 24 * 3600)],
      ['sadd', `t:usage:k:${HOUR}`, `${key.accountId}:${key.keyId}`],
      ['expire', `t:usage:k:${HOUR}`, String(3 * 24 * 3600)],
      ['sadd', 't:usage:pending', String(HOUR)],
    ]);
  });

  it('counts each outcome in exactly one family: a limiter refusal in rl, a business 429 in s4', async () => {
    for (const [status, rateLimited] of [[200, false], [404, false], [503, false], [429, true], [429, false]] as const) {
      const key = principal();
      recorder.started(key, clock.now());
      recorder.finished(outcome(key, status, rateLimited));
    }
    await recorder.flush();
    const fields = redis.transactions[0].filter(([name]) => name === 'hincrby').map(([, , field, by]) => `${field}=${by}`);
    expect(fields.filter((field) => !field.startsWith('n=') && !field.startsWith('l:'))).toEqual(['s2=1', 's4=2', 's5=1', 'rl=1']);
  });

  it('attributes the outcome to the hour its request started, even when it ends in the next hour', async () => {
    const key = principal();
    const startedAt = new Date('2026-03-10T10:59:59.900Z');
    recorder.started(key, startedAt);
    clock.set(new Date('2026-03-10T11:00:00.100Z'));
    recorder.finished({ ...outcome(key, 200), startedAt });
    clock.set(new Date('2026-03-10T10:15:00.000Z'));
    await recorder.flush();
    const hashes = new Set(redis.transactions[0].filter(([name]) => name === 'hincrby').map(([, hash]) => hash));
    expect([...hashes]).toEqual([`t:usage:h:${HOUR}:${key.accountId}:${key.keyId}`]);
  });

  it('leaves a start without outcome for status_unknown (nothing but n is written)', async () => {
    recorder.started(principal(), clock.now());
    await recorder.flush();
    expect(redis.increments()).toEqual(['n']);
  });

  it('never throws when Redis fails, and keeps the counts of a failed flush for the next one', async () => {
    const key = principal();
    redis.failExec = true;
    expect(() => recorder.started(key, clock.now())).not.toThrow();
    await recorder.flush();
    redis.failExec = false;
    expect(() => recorder.finished(outcome(key, 201))).not.toThrow();
    await recorder.flush();
    expect(redis.transactions).toHaveLength(2);
    expect(redis.transactions[1].filter(([name]) => name === 'hincrby').map(([, , field, by]) => [field, by])).toEqual([
      ['n', '1'],
      ['s2', '1'],
      [expect.stringMatching(/^l:/), '1'],
    ]);

    redis.throwOnMulti = true;
    expect(() => recorder.started(key, clock.now())).not.toThrow();
    expect(() => recorder.finished(outcome(key, 200))).not.toThrow();
    await expect(recorder.flush()).resolves.toBeUndefined();
  });

  it('writes nothing when nothing was gathered', async () => {
    await recorder.flush();
    expect(redis.transactions).toHaveLength(0);
  });
});
