import { canonicalJson } from './idempotency.interceptor';

/** The fingerprint of an Idempotency-Key request does not depend on member order or whitespace. */
describe('canonicalJson', () => {
  it('sorts object members at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('gives the same text for the same JSON written differently', () => {
    const one = JSON.parse('{ "name": "Julie", "tags": ["a","b"], "address": {"city": "Laval", "zip": "H7A"} }');
    const two = JSON.parse('{"address":{"zip":"H7A","city":"Laval"},"tags":["a","b"],"name":"Julie"}');
    expect(canonicalJson(one)).toBe(canonicalJson(two));
  });

  it('keeps array order and value types significant', () => {
    expect(canonicalJson(['a', 'b'])).not.toBe(canonicalJson(['b', 'a']));
    expect(canonicalJson({ n: 1 })).not.toBe(canonicalJson({ n: '1' }));
    expect(canonicalJson({ n: null })).not.toBe(canonicalJson({}));
  });

  it('drops undefined members and renders primitives and nothing as JSON', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('é"\n')).toBe(JSON.stringify('é"\n'));
    expect(canonicalJson(1.5)).toBe('1.5');
  });

  it('escapes member names', () => {
    expect(canonicalJson({ 'a"b': 1 })).toBe('{"a\\"b":1}');
  });
});
