import { E164_PATTERN, normalizePhone } from './phone';

describe('normalizePhone (E.164, numbers without a country code read as North American)', () => {
  it.each([
    ['(514) 555-0123', '+15145550123'],
    ['514.555.0123', '+15145550123'],
    ['+1 438 555 0199', '+14385550199'],
    ['15145550123', '+15145550123'],
    ['5145550123', '+15145550123'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normalizePhone(raw)).toBe(expected);
    expect(expected).toMatch(E164_PATTERN);
  });

  it.each(['0000000000', '+1 000 000 0000', '123', 'abc', '', '   ', '+1 514 555 012', '514-555-01234', '1'.repeat(51)])('rejects %j', (raw) => {
    expect(normalizePhone(raw)).toBeNull();
  });
});
