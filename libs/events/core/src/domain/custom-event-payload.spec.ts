import { capPayload, PAYLOAD_CAPS, TRUNCATED_MARK } from './custom-event-payload';

describe('capPayload (stored payload caps of POST /v1/events)', () => {
  it('keeps a payload within the caps unchanged', () => {
    const payload = { a: 1, b: 'x', c: { d: [1, { e: null }] }, f: true };
    expect(capPayload(payload)).toEqual({ value: payload, truncated: false });
  });

  it('replaces values nested deeper than 5 levels', () => {
    expect(capPayload({ a: { b: { c: { d: { e: 1 } } } } }).truncated).toBe(false);
    expect(capPayload({ a: { b: { c: { d: { e: { f: 1 } } } } } })).toEqual({ value: { a: { b: { c: { d: { e: TRUNCATED_MARK } } } } }, truncated: true });
    expect(capPayload({ a: [[[[1]]]] }).truncated).toBe(false);
    expect(capPayload({ a: [[[[[1]]]]] })).toEqual({ value: { a: [[[[TRUNCATED_MARK]]]] }, truncated: true });
  });

  it('keeps the first 100 members of an object or array and the first 2000 characters of a string', () => {
    const capped = capPayload({ o: Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${i}`, i])), l: Array.from({ length: 150 }, (_, i) => i), s: 'x'.repeat(3000) });
    expect(Object.keys(capped.value.o as object)).toHaveLength(PAYLOAD_CAPS.maxKeys);
    expect(capped.value.l).toHaveLength(PAYLOAD_CAPS.maxKeys);
    expect(capped.value.s).toHaveLength(PAYLOAD_CAPS.maxStringLength);
    expect(capped.truncated).toBe(true);
  });

  it('drops top-level members from the last one until the JSON fits in 16 KiB', () => {
    const payload = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`m${i}`, 'é'.repeat(1000)]));
    const capped = capPayload(payload);
    const size = Buffer.byteLength(JSON.stringify(capped.value));
    expect(size).toBeLessThanOrEqual(PAYLOAD_CAPS.maxBytes);
    expect(Object.keys(capped.value)).toEqual(Object.keys(payload).slice(0, 8));
    expect(capped.truncated).toBe(true);
  });
});
