import { decodeCursor, encodeCursor, parseIsoInstant } from './cursor';

/** public-api-v1 › Envelopes, lists and shared conventions: opaque base64url cursor, legacy ISO cursor. */
describe('keyset cursor codec', () => {
  const id = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

  it('round-trips (created_at, id) with millisecond precision', () => {
    const createdAt = new Date('2026-05-03T14:05:09.123Z');
    const cursor = encodeCursor({ createdAt, id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ createdAt, id });
  });

  it('is opaque base64url of {"t","id"}', () => {
    const cursor = encodeCursor({ createdAt: new Date('2026-01-01T00:00:00.000Z'), id });
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).toEqual({ t: '2026-01-01T00:00:00.000Z', id });
  });

  it.each([
    ['2026-05-03T14:05:09.123Z', '2026-05-03T14:05:09.123Z'],
    ['2026-05-03T14:05:09Z', '2026-05-03T14:05:09.000Z'],
    ['2026-05-03T14:05:09.123456Z', '2026-05-03T14:05:09.123Z'],
    ['2026-05-03T10:05:09.000-04:00', '2026-05-03T14:05:09.000Z'],
    ['2026-05-03T16:05:09.000+02:00', '2026-05-03T14:05:09.000Z'],
    // a '+' not percent-encoded in a query string arrives as a space
    ['2026-05-03T16:05:09.000 02:00', '2026-05-03T14:05:09.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('accepts the legacy ISO cursor %s (rows strictly older, no id)', (legacy, instant) => {
    expect(decodeCursor(legacy)).toEqual({ createdAt: new Date(instant), id: null });
  });

  it.each([
    [''],
    ['not a cursor'],
    ['abc'],
    ['%%%'],
    ['2026-05-03'],
    ['2026-05-03 14:05:09Z'],
    ['2026-02-30T00:00:00Z'],
    ['2025-02-29T00:00:00Z'],
    ['2026-13-01T00:00:00Z'],
    ['2026-05-03T24:00:00Z'],
    ['2026-05-03T14:60:00Z'],
    ['2026-05-03T14:05:09+25:00'],
    ['x'.repeat(600)],
  ])('refuses %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });

  it.each([
    ['an array', [1, 2]],
    ['null', null],
    ['a number', 42],
    ['no id', { t: '2026-05-03T14:05:09.123Z' }],
    ['an id that is not a UUID', { t: '2026-05-03T14:05:09.123Z', id: '42' }],
    ['no t', { id }],
    ['t that is not an ISO instant', { t: '1', id }],
    ['t that is an impossible date', { t: '2026-02-30T00:00:00.000Z', id }],
    ['t of another type', { t: 1767225600000, id }],
  ])('refuses an opaque cursor holding %s', (_label, payload) => {
    expect(decodeCursor(Buffer.from(JSON.stringify(payload)).toString('base64url'))).toBeNull();
  });

  it('refuses base64url that is not JSON', () => {
    expect(decodeCursor(Buffer.from('{"t":').toString('base64url'))).toBeNull();
  });

  it('parseIsoInstant checks the calendar', () => {
    expect(parseIsoInstant('2026-04-31T00:00:00Z')).toBeNull();
    expect(parseIsoInstant('2026-04-30T23:59:59.999Z')).toEqual(new Date('2026-04-30T23:59:59.999Z'));
  });
});
