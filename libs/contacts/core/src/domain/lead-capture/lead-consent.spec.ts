import { isTruthyConsent, SMS_CONSENT_TRUTHY_STRINGS } from './lead-consent';

/** public-api-v1 › Lead capture input: `sms_consent` is true or a whitelisted truthy string. */
describe('sms_consent whitelist', () => {
  it('documents exactly true, yes, oui, on, 1, y, o', () => {
    expect(SMS_CONSENT_TRUTHY_STRINGS).toEqual(['true', 'yes', 'oui', 'on', '1', 'y', 'o']);
  });

  it.each([true, 'true', 'TRUE', 'True', 'yes', 'Yes', 'YES', 'oui', 'OUI', 'Oui', 'on', 'ON', '1', 'y', 'Y', 'o', 'O', ' yes ', '\toui\n'])(
    'accepts %p (any casing, surrounding spaces ignored)',
    (value) => {
      expect(isTruthyConsent(value)).toBe(true);
    },
  );

  it.each([false, 'false', 'no', 'non', 'NO', 'maybe', '', ' ', '0', 'off', 'n', 'yes please', 'oui!', 0, 1, 2, null, undefined, {}, [], ['yes'], { value: true }])(
    'refuses %p (missing_consent)',
    (value) => {
      expect(isTruthyConsent(value)).toBe(false);
    },
  );
});
