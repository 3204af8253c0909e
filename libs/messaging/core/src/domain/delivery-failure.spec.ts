import { describeDeliveryFailure, EmailDeliveryError, isPermanentDeliveryFailure } from './delivery-failure';

describe('isPermanentDeliveryFailure: transient failures are retried, permanent ones fail the email', () => {
  it('treats a 5xx SMTP reply as permanent, except 503', () => {
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Mailbox unavailable', 550, 'EENVELOPE'))).toBe(true);
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Message too big', 552, 'EMESSAGE'))).toBe(true);
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Bad sequence', 503, 'EPROTOCOL'))).toBe(false);
  });

  it('treats a 4xx SMTP reply as transient', () => {
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Greylisted, try later', 451, 'EENVELOPE'))).toBe(false);
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Mailbox busy', 450, 'EMESSAGE'))).toBe(false);
  });

  it('treats connection refused, timeouts and unknown errors as transient', () => {
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('connect ECONNREFUSED 127.0.0.1:25', null, 'ESOCKET'))).toBe(false);
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Greeting never received', null, 'ETIMEDOUT'))).toBe(false);
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('Invalid login', null, 'EAUTH'))).toBe(false);
    expect(isPermanentDeliveryFailure(new Error('database went away'))).toBe(false);
  });

  it('treats an envelope or message refused before any reply as permanent', () => {
    expect(isPermanentDeliveryFailure(new EmailDeliveryError('No recipients defined', null, 'EENVELOPE'))).toBe(true);
  });

  it('describes the failure with its reply code, capped at 1000 characters', () => {
    expect(describeDeliveryFailure(new EmailDeliveryError('5.1.1 Mailbox unavailable', 550, 'EENVELOPE'))).toBe('550 5.1.1 Mailbox unavailable');
    expect(describeDeliveryFailure(new EmailDeliveryError('connect ECONNREFUSED', null, 'ESOCKET'))).toBe('ESOCKET connect ECONNREFUSED');
    expect(describeDeliveryFailure(new Error('x'.repeat(2000)))).toHaveLength(1000);
  });
});
