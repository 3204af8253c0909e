import { readConsent } from './presuasion-consent';

describe('presuasion consent: never guessed', () => {
  it('absent or null: not asked', () => {
    expect(readConsent(undefined)).toEqual({ ok: true, value: null });
    expect(readConsent(null)).toEqual({ ok: true, value: null });
  });

  it("lead capture's consent values: given", () => {
    for (const value of [true, 'true', 'YES', ' oui ', 'on', '1', 'y', 'O']) expect(readConsent(value)).toEqual({ ok: true, value: true });
  });

  it('false and the refusal words: refused', () => {
    for (const value of [false, 'false', 'No', ' NON ', 'off', '0', 'n']) expect(readConsent(value)).toEqual({ ok: true, value: false });
  });

  it('anything else is ambiguous and refused', () => {
    for (const value of ['maybe', '', ' ', 'peut-être', 0, 1, 2, {}, [], [true]]) expect(readConsent(value)).toEqual({ ok: false });
  });
});
