import { hasIdentity, normalizeContactEmail, normalizeContactPhone, normalizeText, primaryIdentities } from './contact-identity';

describe('contact identities (public-api-v1 › Contact)', () => {
  it('stores email in lowercase', () => {
    expect(normalizeContactEmail('  Julie@Tremblay.TEST ')).toEqual({ value: 'julie@tremblay.test' });
  });

  it('refuses a malformed email with invalid_format', () => {
    expect(normalizeContactEmail('julie@tremblay')).toEqual({ violation: expect.objectContaining({ field: 'email', reason: 'invalid_format' }) });
  });

  it.each(['(514) 555-0123', '514.555.0123', '15145550123', '+1 514 555 0123'])('normalises the phone %p to E.164', (raw) => {
    expect(normalizeContactPhone(raw)).toEqual({ value: '+15145550123' });
  });

  it.each(['123', 'abc', '555-0123', '51455501234'])('refuses the phone %p with invalid_phone', (raw) => {
    expect(normalizeContactPhone(raw)).toEqual({ violation: expect.objectContaining({ field: 'phone', reason: 'invalid_phone' }) });
  });

  it('refuses a phone over 50 characters with too_long', () => {
    expect(normalizeContactPhone('5'.repeat(51))).toEqual({ violation: expect.objectContaining({ reason: 'too_long' }) });
  });

  it('reads blank values as null', () => {
    expect(normalizeText('  ')).toBeNull();
    expect(normalizeText(undefined)).toBeUndefined();
    expect(normalizeContactEmail('')).toEqual({ value: null });
    expect(normalizeContactPhone(' ')).toEqual({ value: null });
  });

  it('a contact keeps at least one of first name, last name, email, phone', () => {
    expect(hasIdentity({ firstName: null, lastName: null, email: null, phone: null })).toBe(false);
    expect(hasIdentity({ firstName: null, lastName: 'Roy', email: null, phone: null })).toBe(true);
  });

  it('lists the email and phone identities', () => {
    expect(primaryIdentities({ email: 'a@b.co', phone: null })).toEqual([{ kind: 'email', value: 'a@b.co' }]);
  });
});
