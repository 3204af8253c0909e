import { provisionSenders } from './sender.entity';
import { InvalidSendersError } from './messaging.errors';

const now = new Date('2026-11-22T12:00:00.000Z');

describe('provisionSenders (operator blueprint › senders)', () => {
  it('stores emails lowercase and makes the first sender the default one when none is flagged', () => {
    const senders = provisionSenders([{ email: ' Bonjour@Tremblay.TEST ', name: 'Tremblay' }, { email: 'b@t.test', name: 'B' }], [], now);
    expect(senders.map(({ email, isDefault }) => ({ email, isDefault }))).toEqual([
      { email: 'bonjour@tremblay.test', isDefault: true },
      { email: 'b@t.test', isDefault: false },
    ]);
  });

  it('keeps the flagged default, and adds no default when the account already has one', () => {
    expect(provisionSenders([{ email: 'a@t.test', name: 'A' }, { email: 'b@t.test', name: 'B', isDefault: true }], [], now).map((s) => s.isDefault)).toEqual([false, true]);
    expect(provisionSenders([{ email: 'b@t.test', name: 'B' }], [{ email: 'a@t.test', isDefault: true }], now)[0].isDefault).toBe(false);
  });

  it('lists every breach: two defaults, a duplicate (also of a stored sender), an invalid email, a blank or long name', () => {
    let error: unknown;
    try {
      provisionSenders(
        [
          { email: 'a@t.test', name: 'A', isDefault: true },
          { email: 'A@T.test', name: ' ', isDefault: true },
          { email: 'nope', name: 'x'.repeat(201) },
          { email: 'stored@t.test', name: 'S' },
        ],
        [{ email: 'stored@t.test', isDefault: false }],
        now,
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidSendersError);
    expect((error as InvalidSendersError).details).toEqual([
      { field: 'senders[1].is_default', reason: 'invalid_value', message: expect.any(String) },
      { field: 'senders[1].email', reason: 'duplicate', message: expect.any(String) },
      { field: 'senders[1].name', reason: 'required', message: expect.any(String) },
      { field: 'senders[2].email', reason: 'invalid_format', message: expect.any(String) },
      { field: 'senders[2].name', reason: 'too_long', message: expect.any(String) },
      { field: 'senders[3].email', reason: 'duplicate', message: expect.any(String) },
    ]);
  });
});
