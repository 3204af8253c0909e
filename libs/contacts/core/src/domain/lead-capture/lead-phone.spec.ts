import { echoValue, MAX_PHONE_INTEGER, parseLeadPhone, stripPhoneExtension } from './lead-phone';

/** public-api-v1 › Lead capture input: phone (string or positive integer ≤ 9007199254740991, E.164 after normalisation). */
describe('lead capture phone', () => {
  it.each([
    ['(514) 555-0123', '+15145550123'],
    ['514.555.0123', '+15145550123'],
    ['+1 438 555 0199', '+14385550199'],
    ['450-555-0142', '+14505550142'],
    ['1-819-555-0166', '+18195550166'],
    ['418 555-0171', '+14185550171'],
    ['+1 (450) 555-0142', '+14505550142'],
    ['+33 1 42 68 53 00', '+33142685300'],
  ])('normalises the string %p to %p', (raw, expected) => {
    expect(parseLeadPhone(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [15145550123, '+15145550123'],
    [4385550111, '+14385550111'],
  ])('converts the positive JSON integer %p to a string and normalises it', (raw, expected) => {
    expect(parseLeadPhone(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['(514) 555-0156 ext. 204', '+15145550156'],
    ['450 555-0157 poste 3', '+14505550157'],
    ['450 555-0157, poste 1234', '+14505550157'],
    ['514-555-0158 x12', '+15145550158'],
    ['514-555-0159 #7', '+15145550159'],
    ['514 555 0160 p. 22', '+15145550160'],
  ])('drops a trailing extension: %p → %p', (raw, expected) => {
    expect(parseLeadPhone(raw)).toEqual({ ok: true, value: expected });
  });

  it('leaves a number without extension untouched', () => {
    expect(stripPhoneExtension('514 555 0123')).toBe('514 555 0123');
    expect(stripPhoneExtension('poste 3')).toBe('poste 3');
  });

  it.each([undefined, null, '', '   '])('a missing phone (%p) is required', (raw) => {
    expect(parseLeadPhone(raw)).toMatchObject({ ok: false, reason: 'required' });
  });

  it.each([
    'abc',
    '5145550149 / 4505550149',
    '514-555-015',
    '12345',
    '+0 514 555 0123',
    '1'.repeat(60),
  ])('refuses the string %p (invalid_phone)', (raw) => {
    expect(parseLeadPhone(raw)).toMatchObject({ ok: false, reason: 'invalid_phone' });
  });

  it.each([12.5, -187, -5145550146, 0, MAX_PHONE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY, 1e21])(
    'refuses the number %p: only positive integers up to 9007199254740991',
    (raw) => {
      expect(parseLeadPhone(raw)).toMatchObject({ ok: false, reason: 'invalid_phone' });
    },
  );

  it('accepts 9007199254740991 as an integer (then refuses it as a phone number: not E.164)', () => {
    expect(parseLeadPhone(MAX_PHONE_INTEGER)).toMatchObject({ ok: false, reason: 'invalid_phone' });
    expect(parseLeadPhone(MAX_PHONE_INTEGER).ok).toBe(false);
  });

  it.each([true, {}, ['5145550123'], { number: '5145550123' }])('refuses a %p (neither string nor number)', (raw) => {
    expect(parseLeadPhone(raw)).toMatchObject({ ok: false, reason: 'invalid_phone' });
  });

  it('echoes the invalid value in the message, capped at 120 characters', () => {
    const long = `x${'9'.repeat(300)}`;
    const result = parseLeadPhone(long);
    expect(result.ok).toBe(false);
    const message = (result as { message: string }).message;
    expect(message).toContain(long.slice(0, 120));
    expect(message).not.toContain(long.slice(0, 121));
    expect(echoValue(-187)).toBe('-187');
    expect(echoValue('abc')).toBe('abc');
  });
});
