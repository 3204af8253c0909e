import { isSensitiveKey, REDACTED, redactSensitive } from './redaction';

describe('redaction of sensitive keys', () => {
  it.each(['password', 'new_password', 'secret', 'client_secret', 'token', 'accessToken', 'api_key', 'apiKey', 'Authorization', 'ssn', 'sin', 'nas', 'card_number', 'cvv', 'session_id', 'cookie'])(
    '%s is sensitive',
    (key) => expect(isSensitiveKey(key)).toBe(true),
  );

  it.each(['first_name', 'email', 'business', 'nasty_note', 'description', 'status'])('%s is not sensitive', (key) =>
    expect(isSensitiveKey(key)).toBe(false),
  );

  it('replaces the values of sensitive keys at any depth (objects, arrays), leaving the input untouched', () => {
    const input = { first_name: { previous: 'A', current: 'B' }, password: { previous: 'x', current: 'y' }, items: [{ token: 't', name: 'n' }] };
    expect(redactSensitive(input)).toEqual({ first_name: { previous: 'A', current: 'B' }, password: REDACTED, items: [{ token: REDACTED, name: 'n' }] });
    expect(input.password).toEqual({ previous: 'x', current: 'y' });
  });

  it('keeps scalars and null as they are', () => {
    expect(redactSensitive(null)).toBeNull();
    expect(redactSensitive('text')).toBe('text');
  });
});
