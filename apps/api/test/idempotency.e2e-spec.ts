import { FixedClock } from '@leadflow/shared-kernel';
import { createHash } from 'node:crypto';
import { asAccountId } from '@leadflow/shared-kernel';
import { canonicalJson, IDEMPOTENCY_TTL_MS, IdempotencyStore, TransactionHost } from '@leadflow/shared-platform';
import { executions, Gate, PlatformProbeModule } from './support/platform-probe';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * Idempotency-Key (public-api-v1 › Limits: pattern `[a-zA-Z0-9_-]{1,64}`, stored 24 hours; a different
 * payload gives 409 `idempotency_conflict`), exercised on test-only routes marked @Idempotent().
 */
describe('Idempotency-Key', () => {
  const start = new Date('2026-06-01T12:00:00.000Z');
  const clock = new FixedClock(start);
  let api: TestApi;
  let account: ProvisionedAccount;
  let other: ProvisionedAccount;
  let key: string;
  let sequence = 0;
  const freshKey = () => `key_${Date.now().toString(36)}-${++sequence}`;

  const post = (path: string, body: unknown, idempotencyKey?: string, token = key): Promise<TestResponse> =>
    api.request({
      method: 'POST',
      path,
      token,
      body,
      headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
    });

  const storedKeys = async (accountId: string, idempotencyKey: string): Promise<{ state: string; response_status: number | null }[]> =>
    api.app
      .get(TransactionHost)
      .dataSource.query(`SELECT state, response_status FROM platform.idempotency_keys WHERE account_id = $1 AND key = $2`, [accountId, idempotencyKey]);

  beforeAll(async () => {
    api = await TestApi.start({}, clock, { extraModules: [PlatformProbeModule] });
    account = await api.provision({
      api_keys: [
        { name: 'full', preset: 'full_integration', per_hour: 5000 },
        { name: 'second', preset: 'full_integration', per_hour: 5000 },
      ],
    });
    other = await api.provision({ api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 5000 }] });
    key = account.api_keys.full.key;
  });
  afterAll(() => api.close());
  afterEach(() => clock.set(start));

  describe('the key format', () => {
    it.each([
      ['with a space', 'two words'],
      ['of 65 characters', 'k'.repeat(65)],
      ['with a dot', 'a.b'],
      ['with a slash', 'a/b'],
      ['with an accent', 'clé'],
      ['empty', ''],
    ])('a key %s answers 400 invalid_request with details.field Idempotency-Key, nothing executed', async (_label, idempotencyKey) => {
      const before = executions.echo;
      const response = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'invalid_request',
        type: 'invalid_request_error',
        details: { field: 'Idempotency-Key', reason: 'invalid_format' },
        request_id: response.headers['x-request-id'],
      });
      expect(executions.echo).toBe(before);
    });

    it('accepts 64 characters of letters, digits, _ and -', async () => {
      const idempotencyKey = `${'aZ09_-'.repeat(10)}abcd`;
      expect(idempotencyKey).toHaveLength(64);
      expect((await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey)).status).toBe(201);
    });

    it('a bad key without an API key answers 401 first', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/test-probe/echo', body: { name: 'J' }, headers: { 'idempotency-key': 'a b' } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('invalid_api_key');
    });
  });

  describe('replay', () => {
    it('same key and payload replays the status and body with Idempotent-Replayed: true, without running the handler again', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/echo', { name: 'Julie', count: 2 }, idempotencyKey);
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const executed = executions.echo;

      const again = await post('/v1/test-probe/echo', { count: 2, name: 'Julie' }, idempotencyKey); // members in another order
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.raw.body).toBe(first.raw.body);
      expect(again.headers['service-version']).toBe('v1');
      expect(executions.echo).toBe(executed);
      expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([{ state: 'completed', response_status: 201 }]);
    });

    it('replays the body byte for byte (member order kept, not jsonb order)', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/ordered', {}, idempotencyKey);
      const again = await post('/v1/test-probe/ordered', {}, idempotencyKey);
      expect(first.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.raw.body).toBe(first.raw.body);
      expect(first.raw.body.startsWith('{"zeta_long_member":1,')).toBe(true);
    });

    it('replays a 200 of a route with @HttpCode(200)', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/echo-200', { name: 'Julie' }, idempotencyKey);
      const again = await post('/v1/test-probe/echo-200', { name: 'Julie' }, idempotencyKey);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.raw.body).toBe(first.raw.body);
    });

    it('replays the status the handler itself chose (200 of an existing resource, 201 of a new one)', async () => {
      const existing = freshKey();
      const first = await post('/v1/test-probe/upsert', { name: 'Julie', existing: true }, existing);
      const again = await post('/v1/test-probe/upsert', { name: 'Julie', existing: true }, existing);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body).toEqual(first.body);
      expect(await storedKeys(account.account_id, existing)).toEqual([{ state: 'completed', response_status: 200 }]);

      const created = freshKey();
      const createdFirst = await post('/v1/test-probe/upsert', { name: 'Roy' }, created);
      const createdAgain = await post('/v1/test-probe/upsert', { name: 'Roy' }, created);
      expect([createdFirst.status, createdAgain.status]).toEqual([201, 201]);
    });

    it('the legacy /api prefix shares the keys of the same route', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      const legacy = await post('/api/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(legacy.status).toBe(201);
      expect(legacy.headers['idempotent-replayed']).toBe('true');
      expect(legacy.raw.body).toBe(first.raw.body);
    });

    it('without the header every request runs', async () => {
      const first = await post('/v1/test-probe/echo', { name: 'Julie' });
      const second = await post('/v1/test-probe/echo', { name: 'Julie' });
      expect(first.body.data.id).not.toBe(second.body.data.id);
      expect(second.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe('409 idempotency_conflict', () => {
    it('same key with another payload', async () => {
      const idempotencyKey = freshKey();
      expect((await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey)).status).toBe(201);
      const executed = executions.echo;
      const response = await post('/v1/test-probe/echo', { name: 'Roy' }, idempotencyKey);
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'idempotency_conflict', type: 'conflict_error', details: { reason: 'payload_mismatch' } });
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      expect(executions.echo).toBe(executed);
    });

    it('same key and payload on another route', async () => {
      const idempotencyKey = freshKey();
      expect((await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey)).status).toBe(201);
      const response = await post('/v1/test-probe/echo-200', { name: 'Julie' }, idempotencyKey);
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('idempotency_conflict');
    });

    it('while the first request is still processing; replayed once it has finished', async () => {
      const idempotencyKey = freshKey();
      Gate.close();
      const first = post('/v1/test-probe/slow', { name: 'Julie' }, idempotencyKey);
      try {
        for (let i = 0; i < 200 && Gate.entered === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
        expect(Gate.entered).toBe(1);
        expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([{ state: 'processing', response_status: null }]);

        const concurrent = await post('/v1/test-probe/slow', { name: 'Julie' }, idempotencyKey);
        expect(concurrent.status).toBe(409);
        expect(concurrent.body).toMatchObject({ code: 'idempotency_conflict', details: { reason: 'in_progress' } });
      } finally {
        Gate.open();
      }
      const done = await first;
      expect(done.status).toBe(201);
      const replay = await post('/v1/test-probe/slow', { name: 'Julie' }, idempotencyKey);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.raw.body).toBe(done.raw.body);
      expect(executions.slow).toBe(1);
    });
  });

  describe('rejections are not stored: the key stays usable', () => {
    it('a 422 business refusal runs again on retry, and the key then serves a success', async () => {
      const idempotencyKey = freshKey();
      const before = executions.outcome;
      const refused = await post('/v1/test-probe/outcome', { outcome: 'unprocessable' }, idempotencyKey);
      expect(refused.status).toBe(422);
      expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([]);

      const retried = await post('/v1/test-probe/outcome', { outcome: 'unprocessable' }, idempotencyKey);
      expect(retried.status).toBe(422);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(executions.outcome).toBe(before + 2);

      const succeeded = await post('/v1/test-probe/outcome', { outcome: 'ok' }, idempotencyKey);
      expect(succeeded.status).toBe(201);
      const replayed = await post('/v1/test-probe/outcome', { outcome: 'ok' }, idempotencyKey);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.raw.body).toBe(succeeded.raw.body);
    });

    it('a 400 validation failure is not stored', async () => {
      const idempotencyKey = freshKey();
      const invalid = await post('/v1/test-probe/echo', { name: 42 }, idempotencyKey);
      expect(invalid.status).toBe(400);
      expect(invalid.body.code).toBe('validation_error');
      expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([]);
      expect((await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey)).status).toBe(201);
    });

    it('a 415 or invalid JSON is not stored', async () => {
      const idempotencyKey = freshKey();
      const response = await api.request({
        method: 'POST',
        path: '/v1/test-probe/echo',
        token: key,
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      });
      expect(response.status).toBe(400);
      expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([]);
    });

    it('a 500 is not stored', async () => {
      const idempotencyKey = freshKey();
      expect((await post('/v1/test-probe/outcome', { outcome: 'crash' }, idempotencyKey)).status).toBe(500);
      expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([]);
      expect((await post('/v1/test-probe/outcome', { outcome: 'ok' }, idempotencyKey)).status).toBe(201);
    });
  });

  describe('scope of a key', () => {
    it('keys are per account: another account may use the same key with any payload', async () => {
      const idempotencyKey = freshKey();
      const mine = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      const theirs = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey, other.api_keys.full.key);
      expect(theirs.status).toBe(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.data.id).not.toBe(mine.body.data.id);
      const theirsOtherPayload = await post('/v1/test-probe/echo', { name: 'Roy' }, freshKey(), other.api_keys.full.key);
      expect(theirsOtherPayload.status).toBe(201);
    });

    it('another API key of the same account shares the account\'s keys', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      const second = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey, account.api_keys.second.key);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.raw.body).toBe(first.raw.body);
    });
  });

  describe('24 hours', () => {
    it('is still replayed just before 24 hours, runs again from 24 hours on', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(IDEMPOTENCY_TTL_MS).toBe(24 * 60 * 60 * 1000);

      clock.set(new Date(start.getTime() + IDEMPOTENCY_TTL_MS - 1));
      const late = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(late.headers['idempotent-replayed']).toBe('true');
      expect(late.raw.body).toBe(first.raw.body);
      expect((await post('/v1/test-probe/echo', { name: 'Roy' }, idempotencyKey)).status).toBe(409);

      clock.set(new Date(start.getTime() + IDEMPOTENCY_TTL_MS));
      const expired = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(expired.status).toBe(201);
      expect(expired.headers['idempotent-replayed']).toBeUndefined();
      expect(expired.body.data.id).not.toBe(first.body.data.id);
    });

    it('an expired key accepts another payload', async () => {
      const idempotencyKey = freshKey();
      expect((await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey)).status).toBe(201);
      clock.set(new Date(start.getTime() + IDEMPOTENCY_TTL_MS + 60_000));
      const response = await post('/v1/test-probe/echo', { name: 'Roy' }, idempotencyKey);
      expect(response.status).toBe(201);
      expect(response.body.data.name).toBe('Roy');
    });
  });

  describe('a crash never strands a key (issue 12, item 1: lease of a processing key)', () => {
    /** What the request left behind when its process died mid-request: a `processing` claim, never completed nor released. */
    const crashMidRequest = (idempotencyKey: string, body: unknown) =>
      api.app
        .get(IdempotencyStore)
        .claim(asAccountId(account.account_id), idempotencyKey, createHash('sha256').update(`POST /v1/test-probe/echo ${canonicalJson(body)}`).digest('hex'));

    it('a processing key whose request died answers 409 in_progress during its lease, then the retry runs and is stored', async () => {
      const idempotencyKey = freshKey();
      expect(await crashMidRequest(idempotencyKey, { name: 'Julie' })).toEqual({ outcome: 'claimed' });
      const before = executions.echo;

      clock.set(new Date(start.getTime() + 59_999));
      const during = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(during.status).toBe(409);
      expect(during.body).toMatchObject({ code: 'idempotency_conflict', details: { reason: 'in_progress' } });
      expect(executions.echo).toBe(before);

      clock.set(new Date(start.getTime() + 60_000));
      const retried = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(retried.status).toBe(201);
      expect(executions.echo).toBe(before + 1);
      expect(await storedKeys(account.account_id, idempotencyKey)).toEqual([{ state: 'completed', response_status: 201 }]);
      const replayed = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.raw.body).toBe(retried.raw.body);
    });

    it('a completed key keeps its response after the lease: the lease only frees processing keys', async () => {
      const idempotencyKey = freshKey();
      const first = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      clock.set(new Date(start.getTime() + 5 * 60_000));
      const later = await post('/v1/test-probe/echo', { name: 'Julie' }, idempotencyKey);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.raw.body).toBe(first.raw.body);
      expect((await post('/v1/test-probe/echo', { name: 'Roy' }, idempotencyKey)).body).toMatchObject({ code: 'idempotency_conflict', details: { reason: 'payload_mismatch' } });
    });
  });
});
