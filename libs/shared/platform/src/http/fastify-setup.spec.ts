import { isWellFormedMediaType, parseFormBody, parseJsonBody } from './fastify-setup';

describe('isWellFormedMediaType (the rule Fastify applies before parsing)', () => {
  it.each([['application/json'], ['application/json; charset=utf-8'], ['Application/JSON'], ['text/plain'], ['application/vnd.api+json'], ['multipart/form-data; boundary=x']])(
    'accepts %s',
    (header) => expect(isWellFormedMediaType(header)).toBe(true),
  );

  it.each([[''], ['garbage'], ['undefined'], ['/json'], ['application/'], ['appli cation/json'], ['; charset=utf-8'], ['application/js on']])(
    'refuses %j',
    (header) => expect(isWellFormedMediaType(header)).toBe(false),
  );
});

describe('parseJsonBody', () => {
  it('parses JSON', () => {
    expect(parseJsonBody('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
    expect(parseJsonBody('"text"')).toEqual({ ok: true, value: 'text' });
  });

  it.each([['{'], ['{a:1}'], [''], ['  '], ["{'a':1}"], ['{"a":1} x']])('reports invalid JSON %j', (text) => {
    expect(parseJsonBody(text)).toEqual({ ok: false, problem: 'invalid_json' });
  });

  it.each([
    ['{"__proto__":{"x":1}}'],
    ['{"a":[{"b":{"__proto__":{}}}]}'],
    ['{"constructor":{"prototype":{"x":1}}}'],
    ['{"a":{"constructor":{"prototype":null}}}'],
    // The same keys spelled with JSON escapes are the same keys once parsed (secure-json-parse's scan).
    ['{"\\u005f_proto__":{"x":1}}'],
    ['{"a":[{"\\u005F\\u005Fproto\\u005F_":{}}]}'],
    ['{"\\u0063onstructor":{"prototype":{"x":1}}}'],
  ])('refuses prototype poisoning %s', (text) => {
    expect(parseJsonBody(text)).toEqual({ ok: false, problem: 'forbidden_json_member' });
  });

  it('accepts harmless members named constructor', () => {
    expect(parseJsonBody('{"constructor":"Acme","note":"__proto__ in a value"}')).toEqual({
      ok: true,
      value: { constructor: 'Acme', note: '__proto__ in a value' },
    });
  });
});

describe('parseFormBody (routes flagged with @AcceptFormBody only)', () => {
  it('reads an HTML form post into a flat object without prototype', () => {
    const fields = parseFormBody('confirm=sign&name=Nadia+B%C3%A9langer&__proto__=x&confirm=decline');
    expect({ ...fields }).toEqual({ confirm: 'decline', name: 'Nadia Bélanger', ['__proto__']: 'x' });
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(parseFormBody('')).toEqual(Object.create(null));
  });
});
