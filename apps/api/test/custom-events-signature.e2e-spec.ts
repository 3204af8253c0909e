import { FixedClock } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { EVENTS_NOW, eventsBlueprint, postEvent, signature } from './support/events-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * public-api-v1 › Authentication 6 and Limits (event signature window): the optional
 * `X-Service-Signature: t=<unix>,v1=<hex>` of POST /v1/events, HMAC-SHA256 of `<t>.<raw body>` keyed by
 * the raw API key, checked strictly when present (401 `invalid_signature`), on the raw bytes.
 */
describe('POST /v1/events: X-Service-Signature', () => {
  const clock = new FixedClock(EVENTS_NOW);
  const now = Math.floor(EVENTS_NOW.getTime() / 1000);
  let api: TestApi;
  let account: ProvisionedAccount;
  let other: ProvisionedAccount;
  let key: string;
  let sequence = 0;

  const recorded = () => db(api).count('events.custom_events', 'account_id = $1', [account.account_id]);
  const body = () => {
    sequence += 1;
    return { event: 'signe', contact: { email: `signe${sequence}@exemple.test` }, payload: { n: sequence } };
  };
  const send = (raw: string, header: string | undefined, extra: Record<string, string> = {}) =>
    postEvent(api, key, undefined, { rawBody: raw, headers: header === undefined ? extra : { 'x-service-signature': header, ...extra } });
  const expectRefused = async (response: Awaited<ReturnType<typeof send>>, reason: string) => {
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'invalid_signature', type: 'authentication_error', details: { reason } });
  };

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(eventsBlueprint());
    other = await api.provision(eventsBlueprint({ name: 'Autre compte' }));
    key = account.api_keys.capture.key;
  });
  afterAll(() => api.close());

  it('a valid signature over the raw body → 200 and the event is recorded', async () => {
    const before = await recorded();
    const raw = JSON.stringify(body());
    const response = await send(raw, signature(key, now, raw));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 0 });
    expect(await recorded()).toBe(before + 1);
  });

  it('no header: the API key alone authenticates', async () => {
    const response = await send(JSON.stringify(body()), undefined);
    expect(response.status).toBe(200);
  });

  it('verified on the raw bytes: unusual spacing and non-ASCII text sign as sent; a re-serialised body does not match', async () => {
    const raw = `{ "event" : "signé",\n  "contact": {"email": "raw${++sequence}@exemple.test", "first_name": "Élodie 😀"} }`;
    expect((await send(raw, signature(key, now, raw))).status).toBe(200);
    const raw2 = `{ "event" : "signé",  "contact": {"email": "raw${++sequence}@exemple.test"} }`;
    const reserialised = JSON.stringify(JSON.parse(raw2));
    await expectRefused(await send(raw2, signature(key, now, reserialised)), 'mismatch');
  });

  it('window: 5 minutes either direction (t = now ± 300 accepted)', async () => {
    for (const t of [now - 300, now + 300]) {
      const raw = JSON.stringify(body());
      expect((await send(raw, signature(key, t, raw))).status).toBe(200);
    }
  });

  it('expired: t more than 5 minutes in the past → 401 invalid_signature, nothing recorded', async () => {
    const before = await recorded();
    const raw = JSON.stringify(body());
    await expectRefused(await send(raw, signature(key, now - 301, raw)), 'expired');
    await expectRefused(await send(raw, signature(key, now - 86_400, raw)), 'expired');
    expect(await recorded()).toBe(before);
  });

  it('future: t more than 5 minutes ahead → 401 invalid_signature', async () => {
    const raw = JSON.stringify(body());
    await expectRefused(await send(raw, signature(key, now + 301, raw)), 'expired');
  });

  it('wrong key: signed with another key (another account\'s, or the key prefix) → 401 invalid_signature', async () => {
    const raw = JSON.stringify(body());
    await expectRefused(await send(raw, signature(other.api_keys.capture.key, now, raw)), 'mismatch');
    await expectRefused(await send(raw, signature(account.api_keys.capture.prefix, now, raw)), 'mismatch');
    await expectRefused(await send(raw, signature(account.api_keys.full.key, now, raw)), 'mismatch');
  });

  it('tampered body: the signature of another body → 401, nothing recorded', async () => {
    const before = await recorded();
    const signed = JSON.stringify(body());
    const sent = signed.replace('"n":', '"n":1');
    await expectRefused(await send(sent, signature(key, now, signed)), 'mismatch');
    const timeShifted = signature(key, now, signed).replace(`t=${now}`, `t=${now - 1}`);
    await expectRefused(await send(signed, timeShifted), 'mismatch');
    expect(await recorded()).toBe(before);
  });

  it('malformed header → 401 invalid_signature (strict when present)', async () => {
    const raw = JSON.stringify(body());
    const good = signature(key, now, raw);
    const hex = good.split('v1=')[1];
    for (const header of [
      '',
      'garbage',
      `t=${now}`,
      `v1=${hex}`,
      `t=abc,v1=${hex}`,
      `t=${now},v1=${hex.slice(0, 63)}`,
      `t=${now},v1=${hex}zz`,
      `t=${now},v1=${'g'.repeat(64)}`,
      `t=${now},t=${now},v1=${hex}`,
      `t=${now},v1=${hex},v0=abc`,
      `t=-${now},v1=${hex}`,
      `t=${now};v1=${hex}`,
      `sha256=${hex}`,
    ]) {
      await expectRefused(await send(raw, header), 'malformed');
    }
  });

  it('accepts uppercase hex, spaces after commas, and several v1 values when one matches', async () => {
    let raw = JSON.stringify(body());
    const hex = signature(key, now, raw).split('v1=')[1];
    expect((await send(raw, `t=${now}, v1=${hex.toUpperCase()}`)).status).toBe(200);
    raw = JSON.stringify(body());
    const valid = signature(key, now, raw).split('v1=')[1];
    expect((await send(raw, `t=${now},v1=${'0'.repeat(64)},v1=${valid}`)).status).toBe(200);
  });

  it('an Idempotency-Key replay is refused too when its signature is wrong', async () => {
    const raw = JSON.stringify(body());
    expect((await send(raw, signature(key, now, raw), { 'idempotency-key': 'signe-1' })).status).toBe(200);
    await expectRefused(await send(raw, signature(key, now - 1000, raw), { 'idempotency-key': 'signe-1' }), 'expired');
  });
});
