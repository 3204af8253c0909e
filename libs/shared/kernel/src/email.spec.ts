import { normalizeEmail } from './email';

describe('normalizeEmail', () => {
  it('stores addresses in lowercase, trimmed', () => {
    expect(normalizeEmail('  Julie.Roy@Tremblay.TEST ')).toBe('julie.roy@tremblay.test');
  });

  it.each(['julie', 'julie@', '@tremblay.test', 'julie@tremblay', 'ju lie@tremblay.test', `${'a'.repeat(315)}@x.test`])(
    'rejects %j',
    (raw) => {
      expect(normalizeEmail(raw)).toBeNull();
    },
  );
});
